package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.internal.state.FileActivationStore;
import io.loopx.runtime.lifecycle.DoctorAllReceipt;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.lifecycle.ListReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.state.ExtensionRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The lifecycle end to end through the {@link Loopx} facade, with real shell-script providers on
 * the real file system, including every named failure of the lifecycle seed.
 */
class LifecycleTest {
  static final ExtensionId ID = ExtensionId.of("demo-ext");

  @TempDir Path tmp;
  Path root;
  Path packageDir;
  Loopx loopx;

  @BeforeEach
  void setUp() throws IOException {
    root = tmp.resolve("runtime-root");
    packageDir = tmp.resolve("demo-ext");
    writeProvider(packageDir, "1.0.0");
    loopx =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(root)
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .build();
  }

  /** A provider whose doctor fails while a file named {@code fail} sits next to it. */
  static void writeProvider(Path dir, String version) throws IOException {
    Path bin = dir.resolve("bin");
    Files.createDirectories(bin);
    Path script = bin.resolve("provider");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "if [ \"$1\" = \"--doctor\" ]; then\n"
            + "  [ -f \"$(dirname \"$0\")/fail\" ] && exit 3\n"
            + "  exit 0\n"
            + "fi\n"
            + "cat\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \"demo-ext\"\n"
            + "version = \""
            + version
            + "\"\n"
            + "requires_loopx_api = \">=1,<2\"\n"
            + "[runtime]\n"
            + "protocol = \"demo_ext_v0\"\n"
            + "entrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\n"
            + "timeout_seconds = 10\n");
  }

  LoadedManifest manifest() {
    return LoadedManifest.load(packageDir.resolve("extension.toml"));
  }

  LoadedManifest version(String version) throws IOException {
    Path dir = tmp.resolve("demo-ext-" + version);
    writeProvider(dir, version);
    return LoadedManifest.load(dir.resolve("extension.toml"));
  }

  void failDoctor(boolean fail) throws IOException {
    Path marker = packageDir.resolve("bin").resolve("fail");
    if (fail) {
      Files.writeString(marker, "");
    } else {
      Files.deleteIfExists(marker);
    }
  }

  Path stateFile() {
    return root.resolve("extensions").resolve("state.json");
  }

  byte[] stateBytes() throws IOException {
    return Files.readAllBytes(stateFile());
  }

  ExtensionRecord record() {
    return loopx.state().get(ID).orElseThrow();
  }

  static void assertFails(ThrowingCallable call, ErrorKind kind, String message) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(kind);
              assertThat(e).hasMessage(message);
            });
  }

  @Test
  void previewCreatesNeitherStateNorLockFile() {
    LifecycleReceipt receipt = loopx.install(manifest(), Mode.PREVIEW);

    assertThat(receipt.mode()).isEqualTo(Mode.PREVIEW);
    assertThat(receipt.changed()).isFalse();
    assertThat(receipt.enabled()).isEmpty();
    assertThat(receipt.doctor().orElseThrow().status()).isEqualTo(DoctorStatus.PROBE_REQUIRED);
    assertThat(receipt.doctor().orElseThrow().toJson().get("probed_entrypoint_identity").isString())
        .isTrue();
    assertThat(Files.exists(root)).isFalse();
  }

  @Test
  void previewsLeaveAnExistingStateByteIdentical() throws IOException {
    loopx.install(manifest(), Mode.EXECUTE);
    byte[] before = stateBytes();
    long lockModified =
        Files.getLastModifiedTime(stateFile().resolveSibling("state.json.lock")).toMillis();

    loopx.upgrade(version("2.0.0"), Mode.PREVIEW);
    loopx.disable(ID, Mode.PREVIEW);
    loopx.enable(ID, Mode.PREVIEW);
    loopx.doctor(ID, Mode.PREVIEW);
    loopx.doctorAll(Mode.PREVIEW);
    loopx.list();

    assertThat(stateBytes()).isEqualTo(before);
    assertThat(Files.getLastModifiedTime(stateFile().resolveSibling("state.json.lock")).toMillis())
        .isEqualTo(lockModified);
  }

  @Test
  void installExecutesTheProbeAndActivates() {
    LifecycleReceipt receipt = loopx.install(manifest(), Mode.EXECUTE);

    assertThat(receipt.changed()).isTrue();
    assertThat(receipt.enabled()).contains(true);
    assertThat(receipt.doctor().orElseThrow().status()).isEqualTo(DoctorStatus.READY);
    assertThat(receipt.rollbackAvailable()).contains(false);
    ObjectNode json = receipt.toJson();
    assertThat(json.get("schema_version").asString()).isEqualTo("loopx_extension_operation_v0");
    assertThat(json.get("previous_revision").isNull()).isTrue();
    assertThat(record().active().entrypointPath())
        .contains(packageDir.resolve("bin/provider").toString());
    assertThat(loopx.list().extensions())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.enabled()).isTrue();
              assertThat(r.doctorVerified()).isTrue();
            });
    assertThat(
            loopx.registry().provider(io.loopx.api.ProviderId.of(ID)).orElseThrow().state().ready())
        .isTrue();
  }

  @Test
  void installTwiceFails() {
    loopx.install(manifest(), Mode.EXECUTE);

    assertFails(
        () -> loopx.install(manifest(), Mode.PREVIEW),
        ErrorKind.ALREADY_INSTALLED,
        "extension `demo-ext` is already installed");
  }

  @Test
  void installWithFailingDoctorWritesNothing() throws IOException {
    failDoctor(true);

    assertFails(
        () -> loopx.install(manifest(), Mode.EXECUTE),
        ErrorKind.DOCTOR_NOT_READY,
        "doctor of `demo-ext` is not ready: provider_unavailable (probe_nonzero_exit, exit code 3)");
    assertThat(Files.exists(stateFile())).isFalse();
  }

  @Test
  void upgradeToTheActiveRevisionFails() {
    loopx.install(manifest(), Mode.EXECUTE);

    assertFails(
        () -> loopx.upgrade(manifest(), Mode.EXECUTE),
        ErrorKind.REVISION_ALREADY_ACTIVE,
        "extension `demo-ext` revision is already active");
  }

  @Test
  void failedUpgradeKeepsTheActiveRevision() throws IOException {
    loopx.install(manifest(), Mode.EXECUTE);
    byte[] before = stateBytes();
    LoadedManifest v2 = version("2.0.0");
    Files.writeString(tmp.resolve("demo-ext-2.0.0/bin/fail"), "");

    assertFails(
        () -> loopx.upgrade(v2, Mode.EXECUTE),
        ErrorKind.DOCTOR_NOT_READY,
        "doctor of `demo-ext` is not ready: provider_unavailable (probe_nonzero_exit, exit code 3)");
    assertThat(stateBytes()).isEqualTo(before);
    assertThat(record().doctorVerifiedIdentities()).hasSize(1);
  }

  @Test
  void upgradeAndRollbackTwiceToggles() throws IOException {
    LifecycleReceipt installed = loopx.install(manifest(), Mode.EXECUTE);
    LifecycleReceipt upgraded = loopx.upgrade(version("2.0.0"), Mode.EXECUTE);
    assertThat(upgraded.previousRevision()).contains(installed.revision().orElseThrow());
    assertThat(upgraded.rollbackAvailable()).contains(true);

    LifecycleReceipt back = loopx.rollback(ID, Mode.EXECUTE);
    assertThat(back.revision()).isEqualTo(installed.revision());
    assertThat(back.version()).contains("1.0.0");
    assertThat(record().activeRevision()).isEqualTo(installed.revision().orElseThrow());

    LifecycleReceipt forward = loopx.rollback(ID, Mode.EXECUTE);
    assertThat(forward.revision()).isEqualTo(upgraded.revision());
    assertThat(record().activeRevision()).isEqualTo(upgraded.revision().orElseThrow());
    assertThat(record().rollbackRevision()).contains(installed.revision().orElseThrow());
  }

  @Test
  void rollbackWithoutHistoryFails() {
    loopx.install(manifest(), Mode.EXECUTE);

    assertFails(
        () -> loopx.rollback(ID, Mode.PREVIEW),
        ErrorKind.NO_ROLLBACK_REVISION,
        "extension `demo-ext` has no rollback revision");
  }

  @Test
  void failedEnableRemainsDisabledAndRevokesTheCurrentArtifact() throws IOException {
    loopx.install(manifest(), Mode.EXECUTE);
    loopx.disable(ID, Mode.EXECUTE);
    failDoctor(true);

    assertFails(
        () -> loopx.enable(ID, Mode.EXECUTE),
        ErrorKind.DOCTOR_NOT_READY,
        "enable doctor of `demo-ext` is not ready: provider_unavailable (probe_nonzero_exit,"
            + " exit code 3)");
    assertThat(record().enabled()).isFalse();
    assertThat(record().doctorVerifiedIdentities()).isEmpty();

    failDoctor(false);
    LifecycleReceipt enabled = loopx.enable(ID, Mode.EXECUTE);
    assertThat(enabled.changed()).isTrue();
    assertThat(loopx.list().extensions().get(0).doctorVerified()).isTrue();
  }

  @Test
  void disableIsReversibleAndKeepsHistory() {
    loopx.install(manifest(), Mode.EXECUTE);

    LifecycleReceipt disabled = loopx.disable(ID, Mode.EXECUTE);
    assertThat(disabled.changed()).isTrue();
    assertThat(loopx.disable(ID, Mode.EXECUTE).changed()).isFalse();
    assertThat(loopx.list().extensions().get(0).doctorVerified()).isFalse();
    assertThat(record().doctorVerifiedIdentities()).hasSize(1);
    assertThat(loopx.doctor(ID, Mode.EXECUTE).status()).isEqualTo(DoctorStatus.DISABLED);
  }

  @Test
  void failedExecutedDoctorRevokes() throws IOException {
    loopx.install(manifest(), Mode.EXECUTE);
    failDoctor(true);

    DoctorReceipt packet = loopx.doctor(ID, Mode.EXECUTE);

    assertThat(packet.status()).isEqualTo(DoctorStatus.PROVIDER_UNAVAILABLE);
    assertThat(packet.toJson().get("failure_kind").asString()).isEqualTo("probe_nonzero_exit");
    assertThat(record().doctorVerifiedIdentities()).isEmpty();
    assertThat(loopx.list().extensions().get(0).doctorVerified()).isFalse();
  }

  @Test
  void batchDoctorKeepsAFailingProviderClosed() throws IOException {
    loopx.install(manifest(), Mode.EXECUTE);
    failDoctor(true);

    DoctorAllReceipt batch = loopx.doctorAll(Mode.EXECUTE);

    assertThat(batch.ok()).isFalse();
    assertThat(batch.status()).isEqualTo("blocked");
    assertThat(batch.blockedCount()).isEqualTo(1);
    assertThat(
            loopx.registry().provider(io.loopx.api.ProviderId.of(ID)).orElseThrow().state().ready())
        .isFalse();

    DoctorAllReceipt preview = loopx.doctorAll(Mode.PREVIEW);
    assertThat(preview.status()).isEqualTo("probe_required");
    assertThat(preview.verifiedCount()).isZero();
  }

  @Test
  void replacedEntrypointMakesTheProofStale() throws IOException {
    loopx.install(manifest(), Mode.EXECUTE);
    Path script = packageDir.resolve("bin/provider");
    Files.writeString(script, Files.readString(script) + "# changed\n");

    assertThat(loopx.list().extensions().get(0).doctorVerified()).isFalse();
    assertThat(loopx.doctor(ID, Mode.EXECUTE).status()).isEqualTo(DoctorStatus.READY);
    assertThat(loopx.list().extensions().get(0).doctorVerified()).isTrue();
  }

  @Test
  void missingEntrypointMakesTheProofStaleAndDoctorReportsIt() throws IOException {
    loopx.install(manifest(), Mode.EXECUTE);
    Files.delete(packageDir.resolve("bin/provider"));

    assertThat(loopx.list().extensions().get(0).doctorVerified()).isFalse();
    DoctorReceipt packet = loopx.doctor(ID, Mode.EXECUTE);
    assertThat(packet.status()).isEqualTo(DoctorStatus.ENTRYPOINT_MISSING);
    assertThat(packet.available()).isFalse();
    assertThat(packet.toJson().get("probed_entrypoint_identity").isNull()).isTrue();
  }

  @Test
  void retargetedInterpreterInvalidatesTheProof() throws IOException {
    Path interpreter = packageDir.resolve("bin").resolve("sh");
    Files.copy(Path.of("/bin/sh"), interpreter);
    Path script = packageDir.resolve("bin/provider");
    Files.writeString(script, Files.readString(script).replace("#!/bin/sh", "#!/usr/bin/env sh"));
    loopx.install(manifest(), Mode.EXECUTE);
    assertThat(loopx.list().extensions().get(0).doctorVerified()).isTrue();

    Files.write(interpreter, new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);

    assertThat(loopx.list().extensions().get(0).doctorVerified()).isFalse();
  }

  @Test
  void entrypointChangedDuringTheProbeFailsClosed() throws IOException {
    Path script = packageDir.resolve("bin/provider");
    Files.writeString(
        script,
        "#!/bin/sh\nif [ \"$1\" = \"--doctor\" ]; then echo '# touched' >> \"$0\"; exit 0; fi\n");

    assertFails(
        () -> loopx.install(manifest(), Mode.EXECUTE),
        ErrorKind.DOCTOR_NOT_READY,
        "doctor of `demo-ext` is not ready: provider_unavailable"
            + " (entrypoint_changed_during_probe, exit code 0)");
    assertThat(Files.exists(stateFile())).isFalse();
  }

  @Test
  void commandsOnAnUnknownIdFailNotInstalled() {
    List<ThrowingCallable> calls =
        List.of(
            () -> loopx.enable(ID, Mode.PREVIEW),
            () -> loopx.disable(ID, Mode.EXECUTE),
            () -> loopx.rollback(ID, Mode.PREVIEW),
            () -> loopx.doctor(ID, Mode.EXECUTE),
            () -> loopx.upgrade(manifest(), Mode.PREVIEW));
    for (ThrowingCallable call : calls) {
      assertFails(call, ErrorKind.NOT_INSTALLED, "extension `demo-ext` is not installed");
    }
    assertThat(Files.exists(root)).isFalse();
  }

  @Test
  void listOfNoStateListsNothing() {
    ListReceipt list = loopx.list();
    assertThat(list.extensions()).isEmpty();
    assertThat(list.toJson().toString())
        .isEqualTo(
            "{\"ok\":true,\"schema_version\":\"loopx_extension_state_v0\",\"extensions\":[]}");
    assertThat(FileActivationStore.inRuntimeRoot(root).read().isEmpty()).isTrue();
  }
}
