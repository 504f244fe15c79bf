package io.loopx.runtime.run;

import static io.loopx.runtime.run.RunFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorNotReadyException;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Diagnostics (docs/contract/run.md#stderr-tail, docs/contract/doctor.md#doctor-packet): what a
 * failing provider or probe said is kept — {@code stderr_tail}, the doctor's {@code exit_code},
 * {@code entrypoint_lookup} — and the {@code doctor_not_ready} failure names the extension, the
 * status and the exit code and carries the packet.
 */
class DiagnosticsTest {
  @TempDir Path tmp;

  @Test
  void aFailingDoctorSaysItsExitCodeAndStderrAndChangesNothing() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    fixture.write(RunFixture.Spec.of("libfoo-user", "printf '{}'"));
    writeLauncher(
        fixture, "libfoo-user", "#!/bin/sh\necho 'missing dependency libfoo' >&2\nexit 3\n");

    DoctorNotReadyException e =
        catchThrowableOfType(
            DoctorNotReadyException.class,
            () -> fixture.loopx.install(manifest(fixture, "libfoo-user"), Mode.EXECUTE));

    assertThat(e.kind()).isEqualTo(ErrorKind.DOCTOR_NOT_READY);
    assertThat(e.getMessage())
        .isEqualTo(
            "doctor of `libfoo-user` is not ready: provider_unavailable (probe_nonzero_exit,"
                + " exit code 3)");
    DoctorReceipt doctor = e.doctor();
    assertThat(doctor.exitCode()).isEqualTo(OptionalInt.of(3));
    assertThat(doctor.stderrTail()).contains("missing dependency libfoo\n");
    assertThat(doctor.failure()).contains(DoctorFailure.PROBE_NONZERO_EXIT);
    assertThat(doctor.toJson().get("exit_code").intValue()).isEqualTo(3);
    assertThat(doctor.toJson().get("stderr_tail").stringValue())
        .isEqualTo("missing dependency libfoo\n");
    assertThat(doctor.toJson().get("entrypoint_lookup").isNull()).isTrue();
    assertThat(fixture.stateFile).doesNotExist();
  }

  @Test
  void aProbeKilledByASignalItDidNotGetFromLoopxReportsOneHundredTwentyEightPlusTheSignal()
      throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    fixture.write(RunFixture.Spec.of("self-kill", "printf '{}'"));
    writeLauncher(fixture, "self-kill", "#!/bin/sh\nkill -KILL $$\n");

    DoctorNotReadyException e =
        catchThrowableOfType(
            DoctorNotReadyException.class,
            () -> fixture.loopx.install(manifest(fixture, "self-kill"), Mode.EXECUTE));

    assertThat(e.doctor().exitCode()).isEqualTo(OptionalInt.of(137));
    assertThat(e.doctor().stderrTail()).isEmpty();
  }

  @Test
  void aReadyProbeSaysExitCodeZeroAndAPreviewSaysNothing() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    ExtensionId id = fixture.install(RunFixture.Spec.of("fine", "printf '{}'"));

    DoctorReceipt executed = fixture.loopx.doctor(id, Mode.EXECUTE);
    DoctorReceipt preview = fixture.loopx.doctor(id, Mode.PREVIEW);

    assertThat(executed.status()).isEqualTo(DoctorStatus.READY);
    assertThat(executed.exitCode()).isEqualTo(OptionalInt.of(0));
    assertThat(executed.stderrTail()).isEmpty();
    assertThat(preview.exitCode()).isEmpty();
    assertThat(preview.toJson().get("exit_code").isNull()).isTrue();
  }

  @Test
  void aCrashingProvidersTracebackIsKeptInTheRunReceipt() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    ExtensionId id =
        fixture.install(
            RunFixture.Spec.of(
                "crashes",
                "printf 'Traceback (most recent call last):\\n  File \"x.py\", line 1\\n"
                    + "ZeroDivisionError: division by zero\\n' >&2\nexit 1"));

    RunReceipt receipt = fixture.loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE);

    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.INVALID_PROVIDER_OUTPUT);
    assertThat(receipt.outcome().exitCode()).isEqualTo(OptionalInt.of(1));
    assertThat(receipt.outcome().stderrTail())
        .contains(
            "Traceback (most recent call last):\n  File \"x.py\", line 1\n"
                + "ZeroDivisionError: division by zero\n");
    assertThat(receipt.toJson().get("stderr_tail").stringValue()).startsWith("Traceback");
  }

  @Test
  void theTailIsTheLastBytesWithControlCharactersEscaped() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    // 3,000 two-byte characters (6,000 bytes), then an escape sequence and a bidi override.
    ExtensionId id =
        fixture.install(
            RunFixture.Spec.of(
                "noisy",
                "i=0; while [ $i -lt 3000 ]; do printf '\\303\\251'; i=$((i+1)); done >&2\n"
                    + "printf '\\033[2J\\342\\200\\256end\\n' >&2\nprintf '{}'"));

    String tail =
        fixture.loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE).outcome().stderrTail().get();

    assertThat(tail).endsWith("é\\u001B[2J\\u202Eend\n").doesNotContain("\uFFFD");
    // The last 4,096 of 6,011 bytes start inside an é: its continuation byte is skipped, and
    // 4,084 bytes of é (2,042) remain before the 11 final bytes.
    assertThat(tail.chars().filter(c -> c == 'é').count()).isEqualTo(2042);
  }

  @Test
  void aHostCanTurnTheTailOff() throws IOException {
    Path state = tmp.resolve("root").resolve("extensions").resolve("state.json");
    RunFixture fixture = new RunFixture(tmp);
    fixture.install(RunFixture.Spec.of("secretive", "echo 'token=abc' >&2\nprintf '{}'"));
    Loopx quiet =
        Loopx.builder()
            .stateFile(state)
            .hostEnvironment(RunFixture.HOST_ENV)
            .processLauncher(OsProcessLauncher.create())
            .providerStderrTail(false)
            .build();

    RunReceipt receipt =
        quiet.run(RunRequest.of(ExtensionId.of("secretive"), utf8("{}")), Mode.EXECUTE);

    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(receipt.outcome().stderrTail()).isEmpty();
    assertThat(receipt.toJson().get("stderr_tail").isNull()).isTrue();
    assertThat(
            fixture
                .loopx
                .run(RunRequest.of(ExtensionId.of("secretive"), utf8("{}")), Mode.EXECUTE)
                .outcome()
                .stderrTail())
        .contains("token=abc\n");
  }

  @Test
  void aMissingInterpreterSaysWhatWasLookedUpWhere() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    fixture.write(RunFixture.Spec.of("no-interp", "printf '{}'"));
    writeLauncher(fixture, "no-interp", "#!/usr/bin/env loopx-no-such-interpreter\n");

    DoctorNotReadyException e =
        catchThrowableOfType(
            DoctorNotReadyException.class,
            () -> fixture.loopx.install(manifest(fixture, "no-interp"), Mode.EXECUTE));

    String bin = fixture.script("no-interp").getParent().toString();
    assertThat(e.doctor().status()).isEqualTo(DoctorStatus.ENTRYPOINT_MISSING);
    assertThat(lookup(e.doctor()))
        .containsExactly("loopx-no-such-interpreter", bin + ":/usr/bin:/bin");
    assertThat(e.getMessage())
        .isEqualTo(
            "doctor of `no-interp` is not ready: entrypoint_missing (looked up"
                + " `loopx-no-such-interpreter` in `"
                + bin
                + ":/usr/bin:/bin`)");
    assertThat(e.doctor().toJson().get("entrypoint_lookup").get("search_path").stringValue())
        .isEqualTo(bin + ":/usr/bin:/bin");
  }

  @Test
  void aDeletedLauncherOfAnInstalledExtensionNamesItsSavedPath() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    ExtensionId id = fixture.install(RunFixture.Spec.of("gone", "printf '{}'"));
    Path launcher = fixture.script("gone");
    Files.delete(launcher);

    DoctorReceipt doctor = fixture.loopx.doctor(id, Mode.PREVIEW);

    assertThat(doctor.status()).isEqualTo(DoctorStatus.ENTRYPOINT_MISSING);
    assertThat(lookup(doctor)).containsExactly(launcher.toAbsolutePath().toString(), "");
  }

  /** A launcher without execute permission is hashed, and its probe cannot start. */
  @Test
  void aNonExecutableEntrypointNamesTheExtensionAndTheFailure() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    fixture.write(RunFixture.Spec.of("not-exec", "printf '{}'"));
    Files.setPosixFilePermissions(
        fixture.script("not-exec"), PosixFilePermissions.fromString("rw-r--r--"));

    DoctorNotReadyException e =
        catchThrowableOfType(
            DoctorNotReadyException.class,
            () -> fixture.loopx.install(manifest(fixture, "not-exec"), Mode.EXECUTE));

    assertThat(e.getMessage())
        .isEqualTo(
            "doctor of `not-exec` is not ready: provider_unavailable (probe_execution_failed)");
    assertThat(e.doctor().exitCode()).isEmpty();
    assertThat(lookup(e.doctor())).isEmpty();
  }

  @Test
  void aMissingPathEntrypointNamesThePackageDirectory() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    fixture.write(RunFixture.Spec.of("no-file", "printf '{}'"));
    Files.delete(fixture.script("no-file"));

    LifecycleReceipt preview = fixture.loopx.install(manifest(fixture, "no-file"), Mode.PREVIEW);

    assertThat(preview.doctor().orElseThrow().status()).isEqualTo(DoctorStatus.ENTRYPOINT_MISSING);
    assertThat(lookup(preview.doctor().orElseThrow()))
        .containsExactly("bin/provider", fixture.dir("no-file").toAbsolutePath().toString());
  }

  /** The packet's {@code entrypoint_lookup} as its name and search path; empty when null. */
  private static List<String> lookup(DoctorReceipt doctor) {
    JsonNode lookup = doctor.toJson().get("entrypoint_lookup");
    return lookup.isNull()
        ? List.of()
        : List.of(lookup.get("name").asString(), lookup.get("search_path").asString());
  }

  private static void writeLauncher(RunFixture fixture, String id, String script)
      throws IOException {
    Files.writeString(fixture.script(id), script, StandardCharsets.UTF_8);
  }

  private static LoadedManifest manifest(RunFixture fixture, String id) {
    return LoadedManifest.load(fixture.dir(id).resolve("extension.toml"));
  }
}
