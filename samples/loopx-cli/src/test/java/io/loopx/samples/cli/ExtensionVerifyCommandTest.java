package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code loopx extension verify} in process with the shell echo provider of {@link
 * ExtensionRunCommandTest}: the preview runs nothing, the execution finds that echoing a request at
 * the size cap overflows the response cap (exit 1), and usage errors exit 2.
 */
class ExtensionVerifyCommandTest {
  @TempDir Path tmp;
  Cli cli;
  Path pkg;
  String manifest;

  @BeforeEach
  void setUp() throws IOException {
    cli = new Cli(tmp);
    pkg = tmp.resolve("echo-pkg");
    manifest = ExtensionRunCommandTest.writeEchoProvider(pkg, "echo-ext", "").toString();
    Files.createDirectories(pkg.resolve("examples"));
    Files.writeString(pkg.resolve("examples/request.json"), ExtensionRunCommandTest.REQUEST);
  }

  @Test
  void thePreviewListsTheChecksAndRunsNothing() {
    ObjectNode r = cli.json(0, "extension", "verify", "--manifest", manifest);

    assertThat(r.get("dry_run").booleanValue()).isTrue();
    assertThat(r.get("checks")).hasSize(13);
    assertThat(Files.exists(pkg.resolve("bin/runs"))).as("the provider ran").isFalse();
    assertThat(cli.root).doesNotExist();
  }

  @Test
  void anEchoAtTheSizeCapFailsThatCheckOnlyAndExitsOne() {
    ObjectNode r = cli.json(1, "extension", "verify", "--manifest", manifest, "--execute");

    assertThat(r.get("ok").booleanValue()).isFalse();
    Map<String, String> statuses = new HashMap<>();
    for (JsonNode c : r.get("checks").values()) {
      statuses.put(c.get("id").stringValue(), c.get("status").stringValue());
    }
    assertThat(statuses)
        .containsEntry("doctor_exits_zero", "passed")
        .containsEntry("request_one_json_object", "passed")
        .containsEntry("request_at_size_cap", "failed")
        .containsEntry("envelope_mutations_refused", "skipped");
    assertThat(statuses.values().stream().filter("failed"::equals)).hasSize(1);
    assertThat(cli.root).doesNotExist();
  }

  @Test
  void underRequiredIsolationTheReceiptSaysBwrapAndThePackageIsReadOnly() throws IOException {
    // World-readable: a root host's isolated provider runs as an unprivileged uid.
    for (Path dir : List.of(tmp, pkg, pkg.resolve("bin"))) {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    ObjectNode r =
        cli.json(
            1,
            "extension",
            "verify",
            "--manifest",
            manifest,
            "--execute",
            "--isolation",
            "required");

    assertThat(r.get("isolation").stringValue()).isEqualTo("bwrap");
    Map<String, String> statuses = new HashMap<>();
    for (JsonNode c : r.get("checks").values()) {
      statuses.put(c.get("id").stringValue(), c.get("status").stringValue());
    }
    assertThat(statuses)
        .containsEntry("doctor_exits_zero", "passed")
        .containsEntry("request_one_json_object", "passed");
    // The provider's `echo run >> bin/runs` was refused: its package is read-only.
    assertThat(pkg.resolve("bin/runs")).doesNotExist();
    cli.error(
        "usage", "extension", "verify", "--manifest", manifest, "--execute", "--isolation", "on");
  }

  @Test
  void usageAndUncheckableInputExitTwo() throws IOException {
    cli.error("usage", "extension", "verify", "--manifest", manifest, "--action", "demo.write");
    cli.error(
        "request_invalid",
        "extension",
        "verify",
        "--manifest",
        manifest,
        "--input-json",
        tmp.resolve("missing.json").toString());
    Path scope = Files.writeString(tmp.resolve("scope.json"), "{\"target\":\"notes\"}");
    cli.error(
        "request_invalid",
        "extension",
        "verify",
        "--manifest",
        manifest,
        "--action",
        "demo.write",
        "--scope-json",
        scope.toString());
  }
}
