package io.loopx.runtime.run;

import static io.loopx.runtime.run.RunFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.RuntimeEnvironment;
import io.loopx.runtime.internal.identity.RuntimeResolution;
import io.loopx.runtime.internal.identity.RuntimeResolver;
import io.loopx.runtime.internal.process.LaunchRequestRecord;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.ProcessLauncher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One PATH (docs/threat-model.md, P2): the PATH searched for a {@code #!/usr/bin/env NAME}
 * interpreter and the PATH the provider gets are one string, without empty or relative entries.
 */
class OnePathTest {
  private static final String LAUNCHER =
      "#!/usr/bin/env python3\n"
          + "for a in \"$@\"; do [ \"$a\" = \"--doctor\" ] && exit 0; done\n"
          + "printf '{\"exe\":\"%s\"}' \"$(readlink /proc/$$/exe)\"\n";

  @TempDir Path tmp;

  /**
   * With an empty or relative PATH entry, {@code env} would find the {@code python3} in the
   * provider's working directory, a file nobody hashed; the entry is dropped from both PATHs.
   */
  @ParameterizedTest
  @ValueSource(strings = {"", ".", "../work"})
  void anEmptyOrRelativePathEntryCannotRunAnUnhashedInterpreter(String entry) throws IOException {
    Path realBin = interpreterDirectory("real", Path.of("/bin/dash"));
    Path work = Files.createDirectories(tmp.resolve("work"));
    Path fake = work.resolve("python3");
    Files.writeString(
        fake,
        "#!/bin/sh\n: > \"" + tmp.resolve("fake-ran") + "\"\nprintf '{\"exe\":\"fake\"}'\n",
        StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
    String path = entry + ":" + realBin + ":/usr/bin:/bin";
    List<LaunchRequest> seen = new ArrayList<>();
    Loopx loopx = loopx(Map.of("PATH", path), Optional.empty(), inDirectory(tmp, seen));

    ExtensionId id = install(loopx);
    RunReceipt receipt = loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE);

    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(receipt.outcome().providerResult().orElseThrow().get("exe").asText())
        .isEqualTo(realDash());
    assertThat(tmp.resolve("fake-ran")).doesNotExist();
    String given = seen.get(seen.size() - 1).environment().get("PATH");
    assertThat(given).isEqualTo(launcher().getParent() + ":" + realBin + ":/usr/bin:/bin");
  }

  /**
   * The host environment's PATH wins over the runtime environment's search path, for the identity
   * as for the exec: the interpreter that was hashed is the one that runs.
   */
  @Test
  void theHostEnvironmentsPathIsTheOneSearchedAndTheOneGiven() throws IOException {
    Path hostBin = interpreterDirectory("host", Path.of("/bin/dash"));
    Path runtimeBin = interpreterDirectory("runtime", Path.of("/bin/bash"));
    RuntimeEnvironment current = RuntimeEnvironment.current();
    RuntimeEnvironment runtime =
        new RuntimeEnvironment(
            runtimeBin + ":/usr/bin:/bin", current.javaExecutable(), current.codePath());
    Loopx loopx =
        loopx(
            Map.of("PATH", hostBin + ":/usr/bin:/bin"),
            Optional.of(runtime),
            OsProcessLauncher.create());

    ExtensionId id = install(loopx);
    RunReceipt receipt = loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE);

    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(receipt.outcome().providerResult().orElseThrow().get("exe").asText())
        .isEqualTo(realDash());
    String hashed = identity(hostBin);
    assertThat(hashed).isNotEqualTo(identity(runtimeBin));
    assertThat(loopx.state().installed(id).proofCovers(hashed)).isTrue();
  }

  /** Without a host environment PATH, the runtime environment's search path is both. */
  @Test
  void withoutAHostPathTheRuntimeSearchPathIsGivenToTheProvider() throws IOException {
    Path runtimeBin = interpreterDirectory("runtime", Path.of("/bin/dash"));
    RuntimeEnvironment current = RuntimeEnvironment.current();
    RuntimeEnvironment runtime =
        new RuntimeEnvironment(
            "relative:" + runtimeBin + "::/usr/bin:/bin",
            current.javaExecutable(),
            current.codePath());
    Files.createDirectories(tmp.resolve("work"));
    List<LaunchRequest> seen = new ArrayList<>();
    Loopx loopx = loopx(Map.of("HOME", "/home/h"), Optional.of(runtime), inDirectory(tmp, seen));

    ExtensionId id = install(loopx);
    RunReceipt receipt = loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE);

    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(seen.get(seen.size() - 1).environment())
        .containsEntry("PATH", launcher().getParent() + ":" + runtimeBin + ":/usr/bin:/bin")
        .containsEntry("HOME", "/home/h");
  }

  private Path interpreterDirectory(String name, Path target) throws IOException {
    Path bin = Files.createDirectories(tmp.resolve(name));
    Files.createSymbolicLink(bin.resolve("python3"), target);
    return bin;
  }

  private static String realDash() throws IOException {
    return Path.of("/bin/dash").toRealPath().toString();
  }

  private String identity(Path bin) {
    RuntimeEnvironment current = RuntimeEnvironment.current();
    RuntimeResolution resolution =
        RuntimeResolver.of(
                new RuntimeEnvironment(
                    bin + ":/usr/bin:/bin", current.javaExecutable(), current.codePath()))
            .resolveSaved(new LaunchTarget.Executable("bin/provider"), Optional.of(launcher()));
    return resolution.resolvedIdentity().orElseThrow().value();
  }

  private Path launcher() {
    return tmp.resolve("packages").resolve("one-path").resolve("bin").resolve("provider");
  }

  private Loopx loopx(
      Map<String, String> hostEnvironment,
      Optional<RuntimeEnvironment> runtime,
      ProcessLauncher launcher) {
    Loopx.Builder builder =
        Loopx.builder()
            .stateFile(tmp.resolve("root").resolve("extensions").resolve("state.json"))
            .hostEnvironment(hostEnvironment)
            .processLauncher(launcher);
    runtime.ifPresent(builder::runtimeEnvironment);
    return builder.build();
  }

  private ExtensionId install(Loopx loopx) throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    fixture.write(RunFixture.Spec.of("one-path", ""));
    Files.writeString(launcher(), LAUNCHER, StandardCharsets.UTF_8);
    assertThat(
            loopx
                .install(
                    LoadedManifest.load(fixture.dir("one-path").resolve("extension.toml")),
                    Mode.EXECUTE)
                .doctor()
                .orElseThrow()
                .status())
        .isEqualTo(DoctorStatus.READY);
    return ExtensionId.of("one-path");
  }

  /** A launcher that starts every request in {@code directory} and records the requests. */
  private static ProcessLauncher inDirectory(Path directory, List<LaunchRequest> seen) {
    ProcessLauncher os = OsProcessLauncher.create();
    return request -> {
      LaunchRequest moved =
          new LaunchRequestRecord(
              request.argv(),
              request.environment(),
              Optional.of(directory.resolve("work")),
              request.stdin(),
              request.timeout(),
              request.stdoutLimit(),
              request.stderrLimit());
      seen.add(moved);
      return os.launch(moved);
    };
  }
}
