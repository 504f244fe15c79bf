package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The global option {@code --access-root NAME=DIR} (docs/contract/cli.md#global-options,
 * docs/access.md): a capability extension whose {@code runtime.access} declares {@code read:data}
 * installs, enables and passes its doctor with the root mapped, and fails its doctor with {@code
 * access_root_unknown} without it; bad mappings are usage errors.
 */
class AccessRootOptionTest {
  private static final String ID = "recall-data";

  @TempDir Path tmp;
  private Cli cli;
  private Path manifest;
  private Path data;

  @BeforeEach
  void setUp() throws IOException {
    cli = new Cli(tmp);
    Path file = SemanticPreferenceRecallCommandTest.writeRecallProvider(tmp.resolve("pkg"), ID);
    String toml = Files.readString(file);
    Files.writeString(
        file,
        toml.replace("timeout_seconds = 10\n", "timeout_seconds = 10\naccess = [\"read:data\"]\n"));
    assertThat(Files.readString(file)).contains("access = [\"read:data\"]");
    manifest = file;
    data = Files.createDirectories(tmp.resolve("data"));
  }

  @Test
  void aMappedRootLetsTheExtensionInstallEnableAndPassItsDoctor() {
    ObjectNode installed =
        cli.json(
            0,
            "extension",
            "install",
            "--manifest",
            manifest.toString(),
            "--access-root",
            "data=" + data,
            "--execute");

    assertThat(installed.get("enabled").booleanValue()).as(installed.toString()).isTrue();
    assertThat(installed.get("doctor").get("status").stringValue()).isEqualTo("ready");
    ObjectNode doctor =
        cli.json(0, "extension", "doctor", ID, "--access-root", "data=" + data, "--execute");
    assertThat(doctor.get("status").stringValue()).isEqualTo("ready");
    // The same extension on an invocation that maps nothing: its doctor names the unknown root.
    ObjectNode unmapped = cli.json(0, "extension", "doctor", ID, "--execute");
    assertThat(unmapped.get("status").stringValue()).isEqualTo("provider_unavailable");
    assertThat(unmapped.get("failure_kind").stringValue()).isEqualTo("access_root_unknown");
  }

  @Test
  void withoutTheOptionTheInstallFailsItsDoctorWithAccessRootUnknown() {
    ObjectNode packet =
        cli.error(
            "doctor_not_ready",
            "extension",
            "install",
            "--manifest",
            manifest.toString(),
            "--execute");

    assertThat(packet.get("doctor").get("failure_kind").stringValue())
        .isEqualTo("access_root_unknown");
    assertThat(cli.stateFile()).doesNotExist();
  }

  @Test
  void aRelativeDirectoryIsResolvedAgainstTheWorkingDirectory() {
    Path relative = Path.of("").toAbsolutePath().relativize(data);

    ObjectNode installed =
        cli.json(
            0,
            "extension",
            "install",
            "--manifest",
            manifest.toString(),
            "--access-root",
            "data=" + relative,
            "--execute");

    assertThat(installed.get("doctor").get("status").stringValue()).isEqualTo("ready");
  }

  @Test
  void badMappingsAreUsageErrors() {
    String list = "extension";
    assertThat(usage(list, "list", "--access-root", "data").get("error").stringValue())
        .contains("--access-root needs NAME=DIR");
    assertThat(usage(list, "list", "--access-root", "Bad_Name=" + data).get("error").stringValue())
        .contains("access root name");
    assertThat(
            usage(list, "list", "--access-root", "data=" + tmp.resolve("missing"))
                .get("error")
                .stringValue())
        .contains("is not an existing directory");
    assertThat(
            usage(list, "list", "--access-root", "data=" + data, "--access-root", "data=" + data)
                .get("error")
                .stringValue())
        .contains("given twice");
    assertThat(usage(list, "list", "--access-root", "data=").get("error").stringValue())
        .contains("DIR is empty");
  }

  private ObjectNode usage(String... args) {
    return cli.error("usage", args);
  }
}
