package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.runtime.lifecycle.DoctorAllReceipt;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorNotReadyException;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host's access roots (docs/access.md): a revision whose {@code runtime.access} names a root
 * the host did not map fails its doctor with {@code access_root_unknown} before any probe starts (a
 * real shell provider whose probe leaves a line in a log), in previews too, without touching the
 * state; and the builder's checks of the mapping.
 */
class AccessRootTest {
  private static final ExtensionId ID = ExtensionId.of("demo-ext");

  @TempDir Path tmp;
  Path root;
  Path data;
  Path probes;
  LoadedManifest manifest;

  @BeforeEach
  void setUp() throws IOException {
    root = tmp.resolve("runtime-root");
    data = Files.createDirectories(tmp.resolve("data"));
    probes = tmp.resolve("probes.log");
    Path dir = tmp.resolve("demo-ext");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path script = bin.resolve("provider");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "if [ \"$1\" = \"--doctor\" ]; then\n"
            + "  echo probe >> '"
            + probes
            + "'\n"
            + "  exit 0\n"
            + "fi\n"
            + "cat\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        dir.resolve("extension.toml"),
        """
        schema_version = "loopx_extension_manifest_v0"
        id = "demo-ext"
        version = "1.0.0"
        requires_loopx_api = ">=1,<2"
        [runtime]
        protocol = "demo_ext_v0"
        entrypoint = "bin/provider"
        doctor_args = ["--doctor"]
        timeout_seconds = 10
        access = ["write:data", "network"]
        [[provides]]
        id = "demo-cap"
        kind = "projection_sink"
        title = "Demo"
        status = "active"
        visibility = "internal"
        user_value = "a demo"
        next_real_step = "none"
        """);
    manifest = LoadedManifest.load(dir.resolve("extension.toml"));
  }

  private Loopx.Builder host() {
    return Loopx.builder().runtimeRoot(root).hostEnvironment(Map.of("PATH", "/usr/bin:/bin"));
  }

  private long probesRun() throws IOException {
    return Files.exists(probes) ? Files.readAllLines(probes).size() : 0;
  }

  private static void assertRefusedBeforeProbe(DoctorReceipt packet) {
    assertThat(packet.status()).isEqualTo(DoctorStatus.PROVIDER_UNAVAILABLE);
    assertThat(packet.failure()).contains(DoctorFailure.ACCESS_ROOT_UNKNOWN);
    assertThat(packet.available()).isFalse();
    assertThat(packet.verified()).isFalse();
    assertThat(packet.toJson().get("failure_kind").asString()).isEqualTo("access_root_unknown");
    // No process was started: nothing about one is reported.
    assertThat(packet.toJson().get("containment").isNull()).isTrue();
    assertThat(packet.toJson().get("exit_code").isNull()).isTrue();
    assertThat(packet.toJson().get("memory_limit_bytes").isNull()).isTrue();
  }

  @Test
  void anUnmappedRootFailsTheInstallDoctorBeforeAnyProbeInPreviewsToo() throws IOException {
    try (Loopx loopx = host().accessRoot("cache", data).build()) {
      LifecycleReceipt preview = loopx.install(manifest, Mode.PREVIEW);
      assertRefusedBeforeProbe(preview.doctor().orElseThrow());
      DoctorNotReadyException e =
          catchThrowableOfType(
              DoctorNotReadyException.class, () -> loopx.install(manifest, Mode.EXECUTE));
      assertThat(e.kind()).isEqualTo(ErrorKind.DOCTOR_NOT_READY);
      assertThat(e)
          .hasMessage(
              "doctor of `demo-ext` is not ready: provider_unavailable (access_root_unknown)");
      assertRefusedBeforeProbe(e.doctor());
      assertThat(loopx.state().get(ID)).isEmpty();
    }
    assertThat(probesRun()).isZero();
  }

  @Test
  void aMappedRootProbesAndAHostThatLostTheMappingFailsTypedWithTheStateUnchanged()
      throws IOException {
    try (Loopx loopx = host().accessRoot("data", data).build()) {
      assertThat(loopx.install(manifest, Mode.EXECUTE).doctor().orElseThrow().status())
          .isEqualTo(DoctorStatus.READY);
    }
    assertThat(probesRun()).isEqualTo(1);
    Path stateFile = root.resolve("extensions").resolve("state.json");
    byte[] before = Files.readAllBytes(stateFile);
    try (Loopx loopx = host().build()) {
      assertRefusedBeforeProbe(loopx.doctor(ID, Mode.PREVIEW));
      assertRefusedBeforeProbe(loopx.doctor(ID, Mode.EXECUTE));
      DoctorAllReceipt all = loopx.doctorAll(Mode.EXECUTE);
      assertThat(all.packets()).hasSize(1);
      assertRefusedBeforeProbe(all.packets().get(0));
      // The host's mapping, not the runtime, is at fault: the proof is not revoked.
      assertThat(Files.readAllBytes(stateFile)).isEqualTo(before);
    }
    assertThat(probesRun()).isEqualTo(1);
    // Mapped again (under another path), the same proof holds and the doctor probes again.
    Path moved = Files.createDirectories(tmp.resolve("data-2"));
    try (Loopx loopx = host().accessRoot("data", moved).build()) {
      assertThat(loopx.doctor(ID, Mode.EXECUTE).status()).isEqualTo(DoctorStatus.READY);
    }
    assertThat(probesRun()).isEqualTo(2);
  }

  @Test
  void aDisabledExtensionIsReportedDisabledFirst() throws IOException {
    try (Loopx loopx = host().accessRoot("data", data).build()) {
      loopx.install(manifest, Mode.EXECUTE);
      loopx.disable(ID, Mode.EXECUTE);
    }
    try (Loopx loopx = host().build()) {
      assertThat(loopx.doctor(ID, Mode.EXECUTE).status()).isEqualTo(DoctorStatus.DISABLED);
      DoctorNotReadyException e =
          catchThrowableOfType(DoctorNotReadyException.class, () -> loopx.enable(ID, Mode.EXECUTE));
      assertRefusedBeforeProbe(e.doctor());
      assertThat(loopx.state().get(ID).orElseThrow().enabled()).isFalse();
    }
    assertThat(probesRun()).isEqualTo(1);
  }

  @Test
  void theBuilderChecksNamesAndDirectories() throws IOException {
    for (String bad : List.of("", "Data", "data_1", "-data", "a--b", "r" + "0".repeat(32))) {
      InvalidValueException e =
          catchThrowableOfType(
              InvalidValueException.class, () -> Loopx.builder().accessRoot(bad, data));
      assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE);
      assertThat(e).hasMessageContaining("lower-kebab-case");
    }
    assertThat(
            catchThrowableOfType(
                InvalidValueException.class,
                () -> Loopx.builder().accessRoot("data", Path.of("relative/data"))))
        .hasMessageContaining("must be absolute");
    assertThat(
            catchThrowableOfType(
                InvalidValueException.class,
                () -> Loopx.builder().accessRoot("data", data).accessRoot("data", data)))
        .hasMessageContaining("is already mapped");
    assertThat(
            catchThrowableOfType(
                InvalidValueException.class, () -> Loopx.builder().accessRoot("data", null)))
        .hasMessageContaining("is required");
    // Checked at build(): the directory exists, is a directory, and keeps clear of the state.
    assertThat(
            catchThrowableOfType(
                InvalidValueException.class,
                () -> host().accessRoot("data", tmp.resolve("missing")).build()))
        .hasMessageContaining("must be an existing directory");
    Path file = Files.writeString(tmp.resolve("file"), "x");
    assertThat(
            catchThrowableOfType(
                InvalidValueException.class, () -> host().accessRoot("data", file).build()))
        .hasMessageContaining("must be an existing directory");
    Files.createDirectories(root.resolve("extensions").resolve("inside"));
    for (Path near :
        List.of(tmp, root, root.resolve("extensions"), root.resolve("extensions/inside"))) {
      InvalidValueException e =
          catchThrowableOfType(
              InvalidValueException.class, () -> host().accessRoot("data", near).build());
      assertThat(e).as("%s", near).hasMessageContaining("activation state's directory");
    }
    // A link to a directory is followed: the real path is what is mapped.
    Path link = Files.createSymbolicLink(tmp.resolve("data-link"), data);
    try (Loopx loopx = host().accessRoot("data", link).build()) {
      assertThat(loopx.install(manifest, Mode.EXECUTE).doctor().orElseThrow().status())
          .isEqualTo(DoctorStatus.READY);
    }
  }
}
