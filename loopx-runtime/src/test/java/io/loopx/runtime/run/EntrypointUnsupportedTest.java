package io.loopx.runtime.run;

import static io.loopx.runtime.run.RunFixture.assertFails;
import static io.loopx.runtime.run.RunFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.runtime.Mode;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A launcher whose {@code #!} line LoopX refuses to identify is refused at install and upgrade,
 * preview too ({@code entrypoint_unsupported}), and an installed one that turns into one reads as
 * the doctor status {@code entrypoint_unsupported}.
 */
class EntrypointUnsupportedTest {
  private static final String SPLIT = "#!/usr/bin/env -S -u decoy sh\necho '{\"ok\":true}'\n";

  @TempDir Path tmp;

  @Test
  void installRefusesEnvOptionsInPreviewAndExecute() throws IOException {
    RunFixture f = new RunFixture(tmp);
    f.write(RunFixture.Spec.of("split-env", ""));
    Files.writeString(f.script("split-env"), SPLIT, StandardCharsets.UTF_8);
    LoadedManifest m = LoadedManifest.load(f.dir("split-env").resolve("extension.toml"));
    String message =
        "entrypoint `"
            + f.script("split-env")
            + "` is unsupported: its `#!` line passes options to env (`-S -u decoy sh`)";

    assertFails(() -> f.loopx.install(m, Mode.PREVIEW), ErrorKind.ENTRYPOINT_UNSUPPORTED, message);
    assertFails(() -> f.loopx.install(m, Mode.EXECUTE), ErrorKind.ENTRYPOINT_UNSUPPORTED, message);
    assertThat(f.loopx.state().extensions()).isEmpty();
  }

  @Test
  void upgradeRefusesAnInterpreterThatIsAScript() throws IOException {
    RunFixture f = new RunFixture(tmp);
    ExtensionId id = f.install(RunFixture.Spec.of("wrapped", "echo '{\"ok\":true}'"));
    Path wrapper = f.dir("wrapped").resolve("bin").resolve("wrapper");
    Files.writeString(wrapper, "#!/bin/sh\nexec /bin/sh \"$@\"\n", StandardCharsets.UTF_8);
    wrapper.toFile().setExecutable(true);
    Files.writeString(
        f.script("wrapped"), "#!" + wrapper + "\necho '{}'\n", StandardCharsets.UTF_8);
    Path toml = f.dir("wrapped").resolve("extension.toml");
    Files.writeString(toml, Files.readString(toml).replace("1.0.0", "1.1.0"));
    LoadedManifest next = LoadedManifest.load(toml);

    assertFails(
        () -> f.loopx.upgrade(next, Mode.PREVIEW),
        ErrorKind.ENTRYPOINT_UNSUPPORTED,
        "its interpreter `" + wrapper + "` is itself a `#!` script");
    assertFails(
        () -> f.loopx.upgrade(next, Mode.EXECUTE),
        ErrorKind.ENTRYPOINT_UNSUPPORTED,
        "is itself a `#!` script");
    assertThat(f.loopx.state().installed(id).active().manifest().version()).isEqualTo("1.0.0");
  }

  @Test
  void anInstalledEntryThatTurnsUnsupportedReadsAsEntrypointUnsupported() throws IOException {
    RunFixture f = new RunFixture(tmp);
    ExtensionId id = f.install(RunFixture.Spec.of("turns", "echo '{\"ok\":true}'"));
    Files.writeString(f.script("turns"), SPLIT, StandardCharsets.UTF_8);

    assertThat(f.loopx.doctor(id, Mode.PREVIEW).status())
        .isEqualTo(DoctorStatus.ENTRYPOINT_UNSUPPORTED);
    assertThat(f.loopx.doctor(id, Mode.EXECUTE).status())
        .isEqualTo(DoctorStatus.ENTRYPOINT_UNSUPPORTED);
    assertThat(f.loopx.doctor(id, Mode.EXECUTE).toJson().get("status").asText())
        .isEqualTo("entrypoint_unsupported");
    assertFails(
        () -> f.loopx.run(RunRequest.of(id, utf8("{}")), Mode.EXECUTE),
        ErrorKind.DOCTOR_STALE,
        "stale");
  }
}
