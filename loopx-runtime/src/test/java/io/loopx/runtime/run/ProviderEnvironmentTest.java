package io.loopx.runtime.run;

import static io.loopx.runtime.run.RunFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.ProviderEnvironment;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.ProcessLauncher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider environment (docs/contract/run.md#launch): providers inherit the whole host
 * environment by default; an allow-list policy keeps only PATH, HOME, LANG, LC_*, TZ, TMPDIR and
 * the named variables, for the run as for the doctor probe.
 */
class ProviderEnvironmentTest {
  private static final Map<String, String> HOST = host();

  @TempDir Path tmp;

  @Test
  void anAllowListKeepsSecretsFromTheProviderAndItsDoctorProbe() throws IOException {
    List<LaunchRequest> seen = new ArrayList<>();
    Loopx loopx = loopx(ProviderEnvironment.allowList("KEEP_ME"), seen);
    ExtensionId id = install(loopx);

    RunReceipt receipt = loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE);

    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.SUCCEEDED);
    Map<String, String> provider = providerEnvironment();
    assertThat(provider)
        .containsEntry("HOME", "/home/h")
        .containsEntry("LANG", "C.UTF-8")
        .containsEntry("LC_ALL", "C.UTF-8")
        .containsEntry("TZ", "UTC")
        .containsEntry("TMPDIR", "/tmp")
        .containsEntry("KEEP_ME", "kept")
        .containsEntry("LOOPX_EXTENSION_ID", "env-probe")
        .containsKey("PATH")
        .doesNotContainKeys("AWS_SECRET_ACCESS_KEY", "LOOPX_SECRET", "XLC_ALL");
    assertThat(seen).hasSizeGreaterThanOrEqualTo(2);
    assertThat(seen)
        .allSatisfy(
            request ->
                assertThat(request.environment())
                    .doesNotContainKey("AWS_SECRET_ACCESS_KEY")
                    .containsEntry("KEEP_ME", "kept"));
  }

  @Test
  void byDefaultTheWholeHostEnvironmentIsInherited() throws IOException {
    List<LaunchRequest> seen = new ArrayList<>();
    Loopx loopx = loopx(ProviderEnvironment.inheritAll(), seen);
    ExtensionId id = install(loopx);

    loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE);

    assertThat(providerEnvironment())
        .containsEntry("AWS_SECRET_ACCESS_KEY", "s3cr3t")
        .containsEntry("XLC_ALL", "x");
    assertThat(seen.get(0).environment()).containsEntry("AWS_SECRET_ACCESS_KEY", "s3cr3t");
  }

  @Test
  void aNameThatCannotBeAVariableIsRefused() {
    for (String bad : new String[] {"", "A=B", "A\0B"}) {
      assertThatThrownBy(() -> ProviderEnvironment.allowList("OK", bad))
          .isInstanceOf(InvalidValueException.class)
          .satisfies(
              e ->
                  assertThat(((InvalidValueException) e).kind())
                      .isEqualTo(ErrorKind.INVALID_VALUE));
    }
    assertThat(ProviderEnvironment.allowList("B", "A", "A").filter(Map.of("A", "1", "C", "2")))
        .containsExactly(Map.entry("A", "1"));
  }

  private Loopx loopx(ProviderEnvironment policy, List<LaunchRequest> seen) {
    ProcessLauncher os = OsProcessLauncher.builder().terminationGrace(RunFixture.GRACE).build();
    return Loopx.builder()
        .stateFile(tmp.resolve("root").resolve("extensions").resolve("state.json"))
        .hostEnvironment(HOST)
        .providerEnvironment(policy)
        .processLauncher(
            request -> {
              seen.add(request);
              return os.launch(request);
            })
        .build();
  }

  private ExtensionId install(Loopx loopx) throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    fixture.write(RunFixture.Spec.of("env-probe", "env > \"$DIR/env\"\nprintf '{}'"));
    assertThat(
            loopx
                .install(
                    LoadedManifest.load(fixture.dir("env-probe").resolve("extension.toml")),
                    Mode.EXECUTE)
                .doctor()
                .orElseThrow()
                .status())
        .isEqualTo(DoctorStatus.READY);
    return ExtensionId.of("env-probe");
  }

  private Map<String, String> providerEnvironment() throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    for (String line :
        Files.readAllLines(
            tmp.resolve("packages").resolve("env-probe").resolve("env"), StandardCharsets.UTF_8)) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        env.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return env;
  }

  private static Map<String, String> host() {
    Map<String, String> host = new LinkedHashMap<>();
    host.put("PATH", "/usr/bin:/bin");
    host.put("HOME", "/home/h");
    host.put("LANG", "C.UTF-8");
    host.put("LC_ALL", "C.UTF-8");
    host.put("TZ", "UTC");
    host.put("TMPDIR", "/tmp");
    host.put("AWS_SECRET_ACCESS_KEY", "s3cr3t");
    host.put("LOOPX_SECRET", "no");
    host.put("XLC_ALL", "x");
    host.put("KEEP_ME", "kept");
    return host;
  }
}
