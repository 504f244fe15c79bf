package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loopx.api.ExtensionId;
import io.loopx.api.json.CanonicalJson;
import io.loopx.runtime.internal.identity.FileIdentity;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.state.ExtensionRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Target identity and file identity (docs/contract/lifecycle.md#rollback,
 * docs/contract/doctor.md#file-identity) end to end through {@link Loopx} with real files: rollback
 * and upgrade receipts say whether the runtime they find was proven for their target revision
 * ({@code target_identity_proven}), and a launcher without {@code #!} is identified by its file
 * identity.
 */
class RollbackIdentityTest {
  static final ExtensionId ID = ExtensionId.of("demo-ext");

  @TempDir Path tmp;
  Loopx loopx;

  @BeforeEach
  void setUp() {
    loopx =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(tmp.resolve("runtime-root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .build();
  }

  /**
   * Writes version {@code version} of the package into {@code dir}: its code differs per version.
   */
  static Path writePackage(Path dir, String version) throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path script = bin.resolve("provider");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "# provider code of version "
            + version
            + "\n"
            + "if [ \"$1\" = \"--doctor\" ]; then exit 0; fi\n"
            + "cat\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path manifest = dir.resolve("extension.toml");
    Files.writeString(manifest, manifestText(version, "bin/provider"));
    return manifest;
  }

  static String manifestText(String version, String entrypoint) {
    return "schema_version = \"loopx_extension_manifest_v0\"\n"
        + "id = \"demo-ext\"\n"
        + "version = \""
        + version
        + "\"\n"
        + "requires_loopx_api = \">=1,<2\"\n"
        + "[runtime]\n"
        + "protocol = \"demo_ext_v0\"\n"
        + "entrypoint = \""
        + entrypoint
        + "\"\n"
        + "doctor_args = [\"--doctor\"]\n"
        + "timeout_seconds = 10\n";
  }

  ExtensionRecord record() {
    return loopx.state().get(ID).orElseThrow();
  }

  @Test
  void inPlaceUpdateThenRollbackSaysTheTargetIdentityWasNotProven() throws IOException {
    Path dir = tmp.resolve("demo-ext");
    LifecycleReceipt installed =
        loopx.install(LoadedManifest.load(writePackage(dir, "1.0.0")), Mode.EXECUTE);
    assertThat(installed.targetIdentityProven()).contains(false);
    String v1Identity = installed.doctor().orElseThrow().entrypointIdentity().orElseThrow();

    // v2 copied over v1's directory: v1's saved entrypoint_path now holds v2's code.
    LifecycleReceipt upgraded =
        loopx.upgrade(LoadedManifest.load(writePackage(dir, "2.0.0")), Mode.EXECUTE);
    assertThat(upgraded.targetIdentityProven()).contains(false);
    String v2Identity = upgraded.doctor().orElseThrow().entrypointIdentity().orElseThrow();
    assertThat(v2Identity).isNotEqualTo(v1Identity);

    LifecycleReceipt preview = loopx.rollback(ID, Mode.PREVIEW);
    assertThat(preview.version()).contains("1.0.0");
    assertThat(preview.targetIdentityProven()).contains(false);

    LifecycleReceipt back = loopx.rollback(ID, Mode.EXECUTE);

    assertThat(back.version()).contains("1.0.0");
    assertThat(back.doctor().orElseThrow().status()).isEqualTo(DoctorStatus.READY);
    // What the rollback proved, and what now runs as 1.0.0, is v2's code.
    assertThat(back.doctor().orElseThrow().entrypointIdentity()).contains(v2Identity);
    assertThat(back.targetIdentityProven()).contains(false);
    assertThat(back.toJson().get("target_identity_proven").booleanValue()).isFalse();
    assertThat(record().active().provenIdentities()).containsExactly(v1Identity, v2Identity);
  }

  @Test
  void oneDirectoryPerVersionMakesRollbackRealAndSaysSo() throws IOException {
    Path v1Manifest = writePackage(tmp.resolve("demo-ext/1.0.0"), "1.0.0");
    Path v2Manifest = writePackage(tmp.resolve("demo-ext/2.0.0"), "2.0.0");
    String v1Identity =
        loopx
            .install(LoadedManifest.load(v1Manifest), Mode.EXECUTE)
            .doctor()
            .orElseThrow()
            .entrypointIdentity()
            .orElseThrow();
    LifecycleReceipt upgraded = loopx.upgrade(LoadedManifest.load(v2Manifest), Mode.EXECUTE);
    assertThat(upgraded.targetIdentityProven()).contains(false);
    assertThat(loopx.doctor(ID, Mode.EXECUTE).status()).isEqualTo(DoctorStatus.READY);

    LifecycleReceipt preview = loopx.rollback(ID, Mode.PREVIEW);
    assertThat(preview.targetIdentityProven()).contains(true);
    LifecycleReceipt back = loopx.rollback(ID, Mode.EXECUTE);

    assertThat(back.version()).contains("1.0.0");
    assertThat(back.doctor().orElseThrow().entrypointIdentity()).contains(v1Identity);
    assertThat(back.targetIdentityProven()).contains(true);
    assertThat(back.toJson().get("target_identity_proven").booleanValue()).isTrue();

    LifecycleReceipt forward = loopx.rollback(ID, Mode.EXECUTE);
    assertThat(forward.version()).contains("2.0.0");
    assertThat(forward.targetIdentityProven()).contains(true);

    // Upgrading back to a revision in the history whose code is unchanged: proven.
    LifecycleReceipt again = loopx.upgrade(LoadedManifest.load(v1Manifest), Mode.PREVIEW);
    assertThat(again.targetIdentityProven()).contains(true);
  }

  @Test
  void aChangedTargetAfterItsProofIsReportedUnproven() throws IOException {
    Path v1Manifest = writePackage(tmp.resolve("demo-ext/1.0.0"), "1.0.0");
    loopx.install(LoadedManifest.load(v1Manifest), Mode.EXECUTE);
    loopx.upgrade(
        LoadedManifest.load(writePackage(tmp.resolve("demo-ext/2.0.0"), "2.0.0")), Mode.EXECUTE);
    Path v1Script = tmp.resolve("demo-ext/1.0.0/bin/provider");
    Files.writeString(v1Script, Files.readString(v1Script) + "# patched in place\n");

    assertThat(loopx.rollback(ID, Mode.PREVIEW).targetIdentityProven()).contains(false);
  }

  @Test
  void launcherWithoutShebangIsProvenUnderItsFileIdentity() throws IOException {
    Path trueProgram = Path.of("/bin/true");
    assumeTrue(Files.isRegularFile(trueProgram), "needs /bin/true");
    Path dir = tmp.resolve("native-ext");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path launcher = bin.resolve("provider");
    Files.copy(trueProgram, launcher);
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    assumeTrue(
        !new String(Files.readAllBytes(launcher), StandardCharsets.ISO_8859_1).startsWith("#!"));
    Files.writeString(dir.resolve("extension.toml"), manifestText("1.0.0", "bin/provider"));

    LifecycleReceipt installed =
        loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);

    String fileIdentity = FileIdentity.of(launcher).digest();
    assertThat(installed.doctor().orElseThrow().entrypointIdentity()).contains(fileIdentity);
    assertThat(record().doctorVerifiedIdentities()).containsExactly(fileIdentity);
    assertThat(record().active().provenIdentities()).containsExactly(fileIdentity);
    assertThat(loopx.list().extensions().get(0).doctorVerified()).isTrue();
  }

  @Test
  void aProofOfTheOldWrappedIdentityReadsStaleUntilTheNextExecutedDoctor() throws IOException {
    Path trueProgram = Path.of("/bin/true");
    assumeTrue(Files.isRegularFile(trueProgram), "needs /bin/true");
    Path dir = tmp.resolve("native-ext");
    Path launcher = Files.createDirectories(dir.resolve("bin")).resolve("provider");
    Files.copy(trueProgram, launcher);
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(dir.resolve("extension.toml"), manifestText("1.0.0", "bin/provider"));
    loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);
    String fileIdentity = FileIdentity.of(launcher).digest();

    // The state as a LoopX before the file identity (docs/contract/doctor.md#executable-identity)
    // wrote it: the proof names the wrapped record.
    ObjectNode old = JsonNodeFactory.instance.objectNode();
    old.put("schema_version", "loopx_runtime_identity_v1");
    old.put("kind", "executable");
    old.put("launcher", fileIdentity);
    old.putNull("interpreter");
    String oldIdentity = CanonicalJson.sha256Hex(old);
    Path state = tmp.resolve("runtime-root/extensions/state.json");
    String text = Files.readString(state);
    assertThat(text).contains(fileIdentity);
    Files.writeString(state, text.replace(fileIdentity, oldIdentity));
    assertThat(record().doctorVerifiedIdentities()).containsExactly(oldIdentity);

    assertThat(loopx.list().extensions().get(0).doctorVerified()).isFalse();
    assertThat(loopx.doctor(ID, Mode.EXECUTE).status()).isEqualTo(DoctorStatus.READY);
    assertThat(loopx.list().extensions().get(0).doctorVerified()).isTrue();
    assertThat(record().doctorVerifiedIdentities()).containsExactly(oldIdentity, fileIdentity);
  }
}
