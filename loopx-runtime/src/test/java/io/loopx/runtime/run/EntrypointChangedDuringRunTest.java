package io.loopx.runtime.run;

import static io.loopx.runtime.run.RunFixture.assertFails;
import static io.loopx.runtime.run.RunFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.internal.state.Reliability;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchResult;
import io.loopx.runtime.spi.ProcessLauncher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rename race of docs/threat-model.md (P2), made deterministic through the public launcher
 * seam: after the hash and the execute-time check, right before the start, another file is renamed
 * over the launcher; the unproven bytes run; then the proven file is renamed back. The output must
 * never be accepted, the receipt fails with {@code entrypoint_changed_during_run}, and the proof of
 * the identity is revoked (the next call is {@code doctor_stale}).
 *
 * <p>Count: {@code -Dloopx.reliability.renameRaces} (default 10; the {@code reliability} profile
 * runs 1,000).
 */
class EntrypointChangedDuringRunTest {
  static final int RACES = Reliability.count("renameRaces", 10);

  @TempDir Path tmp;

  /**
   * Renames {@code unproven} over {@code launcher} before each run, and the original back after.
   */
  private static ProcessLauncher renamingOver(Path launcher, Path unproven, Path saved) {
    return renamingOver(launcher, unproven, saved, new ArrayList<>());
  }

  /** As above, recording every launch's outcome in {@code outcomes}. */
  private static ProcessLauncher renamingOver(
      Path launcher, Path unproven, Path saved, List<LaunchOutcome> outcomes) {
    ProcessLauncher os = OsProcessLauncher.create();
    return request -> {
      try {
        Files.createLink(saved, launcher);
        Files.copy(unproven, unproven.resolveSibling("swap"), StandardCopyOption.REPLACE_EXISTING);
        Files.move(
            unproven.resolveSibling("swap"),
            launcher,
            StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
        try {
          LaunchResult result = os.launch(request);
          outcomes.add(result.outcome());
          return result;
        } finally {
          Files.move(
              saved, launcher, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
  }

  @Test
  void aLauncherRenamedOverDuringTheRunIsNeverAccepted() throws IOException {
    RunFixture f = new RunFixture(tmp);
    ExtensionId id = f.install(RunFixture.Spec.of("raced", "echo '{\"ok\":true,\"proven\":true}'"));
    Path launcher = f.script("raced");
    Path unproven = tmp.resolve("unproven");
    Files.writeString(
        unproven,
        "#!/bin/sh\n: > \""
            + tmp.resolve("unproven-ran")
            + "\"\necho '{\"ok\":true,\"proven\":false}'\n",
        StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(unproven, PosixFilePermissions.fromString("rwxr-xr-x"));
    Loopx raced =
        Loopx.builder()
            .stateFile(f.stateFile)
            .hostEnvironment(RunFixture.HOST_ENV)
            .processLauncher(renamingOver(launcher, unproven, tmp.resolve("saved")))
            .build();
    String before = Files.readString(launcher);

    int unprovenRuns = 0;
    int accepted = 0;
    for (int i = 0; i < RACES; i++) {
      Files.deleteIfExists(tmp.resolve("unproven-ran"));
      RunReceipt receipt = raced.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE);

      if (Files.exists(tmp.resolve("unproven-ran"))) {
        unprovenRuns++;
      }
      if (receipt.outcome().status() == RunStatus.SUCCEEDED
          || receipt.outcome().providerResult().isPresent()) {
        accepted++;
      }
      assertThat(receipt.outcome().status()).isEqualTo(RunStatus.PROVIDER_FAILED);
      assertThat(receipt.outcome().failure()).contains(RunFailure.ENTRYPOINT_CHANGED_DURING_RUN);
      assertThat(receipt.outcome().providerResult()).isEmpty();
      assertThat(receipt.toJson().get("failure_kind").asText())
          .isEqualTo("entrypoint_changed_during_run");
      // The proven bytes are back, but their proof is revoked: the next call is doctor_stale.
      assertThat(Files.readString(launcher)).isEqualTo(before);
      assertThat(f.loopx.state().installed(id).doctorVerifiedIdentities()).isEmpty();
      assertFails(
          () -> f.loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE),
          ErrorKind.DOCTOR_STALE,
          "stale");
      assertThat(f.loopx.doctor(id, Mode.EXECUTE).status()).isEqualTo(DoctorStatus.READY);
    }
    Reliability.report(
        "rename-races.txt",
        List.of(
            "rename races: " + RACES,
            "unproven provider runs: " + unprovenRuns,
            "accepted unproven outputs: " + accepted));
    assertThat(unprovenRuns).isEqualTo(RACES);
    assertThat(accepted).isZero();
    // Without a race the proven bytes run and are accepted.
    assertThat(f.loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE).outcome().status())
        .isEqualTo(RunStatus.SUCCEEDED);
  }

  /**
   * The same race against the doctor probe: other bytes answer the probe and the proven bytes are
   * back before the re-hash; the changed change time fails the probe.
   */
  @Test
  void aLauncherRenamedOverDuringTheProbeFailsIt() throws IOException {
    RunFixture f = new RunFixture(tmp);
    ExtensionId id = f.install(RunFixture.Spec.of("probed", "echo '{\"ok\":true}'"));
    Path unproven = tmp.resolve("unproven");
    Files.writeString(unproven, "#!/bin/sh\nexit 0\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(unproven, PosixFilePermissions.fromString("rwxr-xr-x"));
    Loopx raced =
        Loopx.builder()
            .stateFile(f.stateFile)
            .hostEnvironment(RunFixture.HOST_ENV)
            .processLauncher(renamingOver(f.script("probed"), unproven, tmp.resolve("saved")))
            .build();

    var doctor = raced.doctor(id, Mode.EXECUTE);

    assertThat(doctor.status()).isEqualTo(DoctorStatus.PROVIDER_UNAVAILABLE);
    assertThat(doctor.toJson().get("failure_kind").asText())
        .isEqualTo("entrypoint_changed_during_probe");
    assertThat(f.loopx.state().installed(id).doctorVerifiedIdentities()).isEmpty();
    assertFails(
        () -> f.loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE),
        ErrorKind.DOCTOR_STALE,
        "stale");
  }

  /**
   * The prevention half for a native launcher (docs/threat-model.md, P2): other bytes renamed over
   * the proven binary are killed right after the start, before they get the request ({@code
   * EXECUTABLE_MISMATCH} at the launcher), and the receipt fails as for the detection. The unproven
   * program is a copy of {@code xargs}: given the manifest's argument it reads its stdin to the end
   * before anything else, so it is still running when the check looks, whatever the machine's load
   * (a program that exits at once, as {@code cat} of a missing file does, may be gone first and
   * leave the decision to the detection).
   */
  @Test
  void aNativeLauncherRenamedOverIsKilledBeforeItGetsTheRequest() throws IOException {
    RunFixture f = new RunFixture(tmp);
    RunFixture.Spec spec = RunFixture.Spec.of("native", "").args("{\"ok\":true}");
    f.write(spec);
    Path launcher = f.script("native");
    Files.copy(Path.of("/bin/echo"), launcher, StandardCopyOption.REPLACE_EXISTING);
    ExtensionId id = ExtensionId.of("native");
    f.loopx.install(LoadedManifest.load(f.dir("native").resolve("extension.toml")), Mode.EXECUTE);
    assertThat(f.loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE).outcome().status())
        .isEqualTo(RunStatus.SUCCEEDED);
    Path unproven = tmp.resolve("unproven");
    Files.copy(Path.of("/usr/bin/xargs"), unproven);
    List<LaunchOutcome> outcomes = new ArrayList<>();
    Loopx raced =
        Loopx.builder()
            .stateFile(f.stateFile)
            .hostEnvironment(RunFixture.HOST_ENV)
            .processLauncher(renamingOver(launcher, unproven, tmp.resolve("saved"), outcomes))
            .build();

    RunReceipt receipt = raced.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE);

    assertThat(outcomes).containsExactly(LaunchOutcome.EXECUTABLE_MISMATCH);
    assertThat(receipt.outcome().failure()).contains(RunFailure.ENTRYPOINT_CHANGED_DURING_RUN);
    assertThat(receipt.outcome().providerResult()).isEmpty();
    assertThat(f.loopx.state().installed(id).doctorVerifiedIdentities()).isEmpty();
  }
}
