package io.loopx.testkit;

import static io.loopx.testkit.ReceiptAssert.assertThatReceipt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.lifecycle.DoctorAllReceipt;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.spi.LaunchResult;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle of {@code LifecycleTest} (runtime module) again, through the real {@link Loopx} on
 * a Jimfs runtime root with scripted providers: no OS process and no disk file is involved, which
 * also lets every probe be counted.
 */
class JimfsLifecycleTest {
  static final ExtensionId ID = ExtensionId.of("demo-ext");

  final TestLoopx t = TestLoopx.create();
  final Loopx loopx = t.loopx();

  @AfterEach
  void close() {
    t.close();
  }

  LoadedManifest version(String version) {
    return version(version, ProcessScript.doctorExits(0));
  }

  LoadedManifest version(String version, ProcessScript script) {
    return t.stage(Manifests.standalone("demo-ext").version(version), script);
  }

  Path launcher(String version) {
    return t.root().packageDirectory("demo-ext", version).resolve("bin/provider");
  }

  void doctorOf(String version, int exitCode) {
    t.launcher().script(launcher(version), ProcessScript.doctorExits(exitCode));
  }

  byte[] stateBytes() {
    return t.stateBytes().orElseThrow();
  }

  ExtensionRecord record() {
    return loopx.state().get(ID).orElseThrow();
  }

  boolean listedVerified() {
    return loopx.list().extensions().get(0).doctorVerified();
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
  void previewCreatesNothingAndRunsNothing() {
    LifecycleReceipt receipt = loopx.install(version("1.0.0"), Mode.PREVIEW);

    assertThatReceipt(receipt)
        .isOk()
        .hasAllDocumentedKeys()
        .hasValue("dry_run", true)
        .hasValue("changed", false)
        .hasNullValue("enabled")
        .hasValue("doctor.status", "probe_required")
        .hasKey("doctor.probed_entrypoint_identity");
    assertThat(receipt.toJson().get("doctor").get("probed_entrypoint_identity").isString())
        .isTrue();
    assertThat(Files.exists(t.root().runtimeRoot())).isFalse();
    assertThat(t.launcher().launchCount()).isZero();
  }

  @Test
  void previewsLeaveAnExistingStateByteIdenticalAndRunNoProvider() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    LoadedManifest v2 = version("2.0.0");
    byte[] before = stateBytes();
    t.launcher().clearLaunches();

    loopx.upgrade(v2, Mode.PREVIEW);
    loopx.disable(ID, Mode.PREVIEW);
    loopx.enable(ID, Mode.PREVIEW);
    loopx.doctor(ID, Mode.PREVIEW);
    loopx.doctorAll(Mode.PREVIEW);
    loopx.list();
    loopx.registry();

    assertThat(stateBytes()).isEqualTo(before);
    assertThat(t.launcher().launches()).isEmpty();
  }

  @Test
  void installProbesOnceWithTheProviderEnvironmentAndActivates() {
    LifecycleReceipt receipt = loopx.install(version("1.0.0"), Mode.EXECUTE);

    assertThatReceipt(receipt)
        .isOk()
        .hasAllDocumentedKeys()
        .hasValue("changed", true)
        .hasValue("enabled", true)
        .hasValue("doctor.status", "ready")
        .hasValue("doctor.verified", true)
        .hasValue("rollback_available", false)
        .hasNullValue("previous_revision");
    assertThat(t.launcher().launches())
        .singleElement()
        .satisfies(
            l -> {
              assertThat(l.argv()).containsExactly(launcher("1.0.0").toString(), "--doctor");
              assertThat(l.request().environment())
                  .containsEntry("LOOPX_EXTENSION_ID", "demo-ext")
                  .containsEntry(
                      "LOOPX_EXTENSION_REVISION", receipt.revision().orElseThrow().value())
                  .containsEntry("PATH", launcher("1.0.0").getParent() + ":/loopx/bin");
              assertThat(l.request().stdinLength()).isZero();
              assertThat(l.request().timeout()).isEqualTo(Duration.ofSeconds(30));
            });
    assertThat(record().active().entrypointPath()).contains(launcher("1.0.0").toString());
    assertThat(listedVerified()).isTrue();
    assertThat(loopx.registry().provider(ProviderId.of(ID)).orElseThrow().state().ready()).isTrue();
  }

  @Test
  void installTwiceFails() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);

    assertFails(
        () -> loopx.install(version("1.0.0"), Mode.PREVIEW),
        ErrorKind.ALREADY_INSTALLED,
        "extension `demo-ext` is already installed");
  }

  @Test
  void everyKindOfFailedProbeWritesNothing() {
    List<ProcessScript> failures =
        List.of(
            ProcessScript.doctorExits(3),
            ProcessScript.succeeds().onDoctor(ProcessScript.timesOut()),
            ProcessScript.succeeds().onDoctor(ProcessScript.overflowsStdout()),
            ProcessScript.succeeds().onDoctor(ProcessScript.overflowsStderr()),
            ProcessScript.failsToStart("exec format error"));
    List<String> kinds =
        List.of(
            "probe_nonzero_exit",
            "probe_execution_failed",
            "probe_execution_failed",
            "probe_execution_failed",
            "probe_execution_failed");
    for (int i = 0; i < failures.size(); i++) {
      LoadedManifest m = version("1.0.0", failures.get(i));
      assertFails(
          () -> loopx.install(m, Mode.EXECUTE),
          ErrorKind.DOCTOR_NOT_READY,
          notReady("doctor", kinds.get(i) + (i == 0 ? ", exit code 3" : "")));
      assertThat(Files.exists(t.root().runtimeRoot())).isFalse();
      assertThatReceipt(loopx.install(m, Mode.PREVIEW))
          .doctor()
          .hasStatus(DoctorStatus.PROBE_REQUIRED);
    }
    // the doctor's failure kind, seen through an installed extension
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    for (int i = 0; i < failures.size(); i++) {
      t.launcher().script(launcher("1.0.0"), failures.get(i));
      assertThatReceipt(loopx.doctor(ID, Mode.EXECUTE))
          .hasValue("status", "provider_unavailable")
          .hasValue("failure_kind", kinds.get(i))
          .hasValue("available", false);
    }
  }

  @Test
  void anUnscriptedLauncherIsAProbeExecutionFailure() {
    LoadedManifest m = version("1.0.0");
    t.launcher().unscript(launcher("1.0.0"));

    assertFails(
        () -> loopx.install(m, Mode.EXECUTE),
        ErrorKind.DOCTOR_NOT_READY,
        notReady("doctor", "probe_execution_failed"));
  }

  @Test
  void upgradeToTheActiveRevisionFails() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);

    assertFails(
        () -> loopx.upgrade(version("1.0.0"), Mode.EXECUTE),
        ErrorKind.REVISION_ALREADY_ACTIVE,
        "extension `demo-ext` revision is already active");
  }

  @Test
  void failedUpgradeKeepsTheActiveRevision() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    byte[] before = stateBytes();
    LoadedManifest v2 = version("2.0.0", ProcessScript.doctorExits(4));

    assertFails(
        () -> loopx.upgrade(v2, Mode.EXECUTE),
        ErrorKind.DOCTOR_NOT_READY,
        notReady("doctor", "probe_nonzero_exit, exit code 4"));
    assertThat(stateBytes()).isEqualTo(before);
    assertThat(record().doctorVerifiedIdentities()).hasSize(1);
    assertThat(listedVerified()).isTrue();
  }

  @Test
  void upgradeAndRollbackTwiceToggles() {
    LifecycleReceipt installed = loopx.install(version("1.0.0"), Mode.EXECUTE);
    LifecycleReceipt upgraded = loopx.upgrade(version("2.0.0"), Mode.EXECUTE);
    assertThatReceipt(upgraded)
        .lifecycle()
        .hasOperation("upgrade")
        .hasPreviousRevision(installed.revision().orElseThrow())
        .hasRollbackAvailable(true);
    t.launcher().clearLaunches();

    LifecycleReceipt preview = loopx.rollback(ID, Mode.PREVIEW);
    assertThat(t.launcher().launchCount()).isZero();
    LifecycleReceipt back = loopx.rollback(ID, Mode.EXECUTE);
    assertThatReceipt(back)
        .hasAllDocumentedKeys()
        .hasValue("version", "1.0.0")
        .hasValue("revision", installed.revision().orElseThrow())
        .hasValue("previous_revision", upgraded.revision().orElseThrow());
    assertThat(preview.revision()).isEqualTo(back.revision());
    assertThat(t.launcher().launches())
        .singleElement()
        .satisfies(l -> assertThat(l.program()).isEqualTo(launcher("1.0.0").toString()));
    assertThat(record().activeRevision()).isEqualTo(installed.revision().orElseThrow());
    assertThat(listedVerified()).isTrue();

    LifecycleReceipt forward = loopx.rollback(ID, Mode.EXECUTE);
    assertThat(forward.revision()).isEqualTo(upgraded.revision());
    assertThat(record().activeRevision()).isEqualTo(upgraded.revision().orElseThrow());
    assertThat(record().rollbackRevision()).contains(installed.revision().orElseThrow());
  }

  @Test
  void rollbackOfADisabledExtensionEnablesIt() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    loopx.upgrade(version("2.0.0"), Mode.EXECUTE);
    loopx.disable(ID, Mode.EXECUTE);

    assertThat(loopx.rollback(ID, Mode.PREVIEW).enabled()).contains(false);
    assertThat(loopx.rollback(ID, Mode.EXECUTE).enabled()).contains(true);
    assertThat(record().enabled()).isTrue();
  }

  @Test
  void failedRollbackWritesNothing() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    loopx.upgrade(version("2.0.0"), Mode.EXECUTE);
    doctorOf("1.0.0", 2);
    byte[] before = stateBytes();

    assertFails(
        () -> loopx.rollback(ID, Mode.EXECUTE),
        ErrorKind.DOCTOR_NOT_READY,
        notReady("rollback doctor", "probe_nonzero_exit, exit code 2"));
    assertThat(stateBytes()).isEqualTo(before);
  }

  @Test
  void rollbackWithoutHistoryFails() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);

    assertFails(
        () -> loopx.rollback(ID, Mode.PREVIEW),
        ErrorKind.NO_ROLLBACK_REVISION,
        "extension `demo-ext` has no rollback revision");
  }

  @Test
  void historyKeepsTheNewestFiveRevisions() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    for (int v = 2; v <= 7; v++) {
      loopx.upgrade(version(v + ".0.0"), Mode.EXECUTE);
    }
    assertThat(record().revisions())
        .extracting(RevisionSnapshot::version)
        .containsExactly("3.0.0", "4.0.0", "5.0.0", "6.0.0", "7.0.0");

    loopx.upgrade(version("4.0.0"), Mode.EXECUTE); // a revision in history becomes the newest
    assertThat(record().revisions())
        .extracting(RevisionSnapshot::version)
        .containsExactly("3.0.0", "5.0.0", "6.0.0", "7.0.0", "4.0.0");
    assertThat(record().rollbackRevision()).contains(version("7.0.0").revision());
  }

  @Test
  void historyNeverDropsTheRollbackTarget() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    for (int v = 2; v <= 6; v++) {
      loopx.upgrade(version(v + ".0.0"), Mode.EXECUTE);
      if (v < 6) {
        loopx.rollback(ID, Mode.EXECUTE); // 1.0.0 active again, the oldest revision
      }
    }

    assertThat(record().revisions())
        .extracting(RevisionSnapshot::version)
        .containsExactly("1.0.0", "3.0.0", "4.0.0", "5.0.0", "6.0.0");
    assertThat(record().rollbackRevision()).contains(version("1.0.0").revision());
    assertThat(loopx.rollback(ID, Mode.EXECUTE).version()).contains("1.0.0");
  }

  @Test
  void failedEnableRemainsDisabledAndRevokesTheCurrentArtifact() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    loopx.disable(ID, Mode.EXECUTE);
    doctorOf("1.0.0", 3);

    assertFails(
        () -> loopx.enable(ID, Mode.EXECUTE),
        ErrorKind.DOCTOR_NOT_READY,
        notReady("enable doctor", "probe_nonzero_exit, exit code 3"));
    assertThat(record().enabled()).isFalse();
    assertThat(record().doctorVerifiedIdentities()).isEmpty();
    assertThat(record().doctorVerifiedRevision()).isEmpty();

    doctorOf("1.0.0", 0);
    LifecycleReceipt enabled = loopx.enable(ID, Mode.EXECUTE);
    assertThatReceipt(enabled).hasAllDocumentedKeys().hasValue("changed", true);
    assertThat(listedVerified()).isTrue();
  }

  @Test
  void failedEnableOfAnEnabledExtensionKeepsItEnabledButNotReady() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    doctorOf("1.0.0", 3);

    assertFails(
        () -> loopx.enable(ID, Mode.EXECUTE),
        ErrorKind.DOCTOR_NOT_READY,
        notReady("enable doctor", "probe_nonzero_exit, exit code 3"));
    assertThat(record().enabled()).isTrue();
    assertThat(listedVerified()).isFalse();
    assertThat(loopx.registry().provider(ProviderId.of(ID)).orElseThrow().state().ready())
        .isFalse();
  }

  @Test
  void enableAlwaysReprobes() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    t.launcher().clearLaunches();

    LifecycleReceipt again = loopx.enable(ID, Mode.EXECUTE);

    assertThatReceipt(again)
        .lifecycle()
        .isExecuted()
        .isNotChanged()
        .wouldNotChange()
        .doctor()
        .hasStatus(DoctorStatus.READY);
    assertThat(t.launcher().launches())
        .singleElement()
        .satisfies(l -> assertThat(l.isDoctorProbe()).isTrue());
  }

  @Test
  void disableIsReversibleAndKeepsHistory() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);

    LifecycleReceipt disabled = loopx.disable(ID, Mode.EXECUTE);
    assertThatReceipt(disabled)
        .hasAllDocumentedKeys()
        .hasValue("changed", true)
        .hasValue("enabled", false);
    assertThatReceipt(loopx.disable(ID, Mode.EXECUTE)).lifecycle().isNotChanged().hasNoDoctor();
    assertThat(listedVerified()).isFalse();
    assertThat(record().doctorVerifiedIdentities()).hasSize(1);
    t.launcher().clearLaunches();
    assertThatReceipt(loopx.doctor(ID, Mode.EXECUTE)).doctor().hasStatus(DoctorStatus.DISABLED);
    assertThat(t.launcher().launchCount()).isZero();
  }

  @Test
  void failedExecutedDoctorRevokes() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    doctorOf("1.0.0", 9);

    DoctorReceipt packet = loopx.doctor(ID, Mode.EXECUTE);

    assertThatReceipt(packet)
        .hasAllDocumentedKeys()
        .hasValue("status", "provider_unavailable")
        .hasValue("failure_kind", "probe_nonzero_exit");
    assertThat(record().doctorVerifiedIdentities()).isEmpty();
    assertThat(listedVerified()).isFalse();
  }

  @Test
  void batchDoctorProbesEveryEnabledExtensionAndKeepsAFailingOneClosed() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    loopx.install(
        t.stage(Manifests.standalone("other-ext"), ProcessScript.doctorExits(0)), Mode.EXECUTE);
    loopx.install(
        t.stage(Manifests.standalone("off-ext"), ProcessScript.doctorExits(0)), Mode.EXECUTE);
    loopx.disable(ExtensionId.of("off-ext"), Mode.EXECUTE);
    doctorOf("1.0.0", 3);
    t.launcher().clearLaunches();

    DoctorAllReceipt batch = loopx.doctorAll(Mode.EXECUTE);

    assertThatReceipt(batch)
        .isNotOk()
        .hasAllDocumentedKeys()
        .hasValue("status", "blocked")
        .hasValue("enabled_count", 2)
        .hasValue("verified_count", 1)
        .hasValue("blocked_count", 1)
        .hasValue("extensions[0].extension_id", "demo-ext")
        .hasValue("extensions[0].status", "provider_unavailable")
        .hasValue("extensions[1].extension_id", "other-ext")
        .hasValue("extensions[1].status", "ready");
    assertThat(t.launcher().launchCount()).isEqualTo(2);
    assertThat(loopx.registry().provider(ProviderId.of(ID)).orElseThrow().state().ready())
        .isFalse();

    DoctorAllReceipt preview = loopx.doctorAll(Mode.PREVIEW);
    assertThatReceipt(preview)
        .isOk()
        .hasValue("status", "probe_required")
        .hasValue("verified_count", 0)
        .hasValue("enabled_count", 2);
    assertThat(t.launcher().launchCount()).isEqualTo(2);
  }

  @Test
  void replacedLauncherMakesTheProofStale() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    t.root()
        .writeExecutable(
            launcher("1.0.0"), JimfsRuntimeRoot.launcherContent("demo-ext", "1.0.0", 1));

    assertThat(listedVerified()).isFalse();
    assertThat(loopx.registry().provider(ProviderId.of(ID)).orElseThrow().state().ready())
        .isFalse();
    assertThatReceipt(loopx.doctor(ID, Mode.EXECUTE)).doctor().hasStatus(DoctorStatus.READY);
    assertThat(listedVerified()).isTrue();
    assertThat(record().doctorVerifiedIdentities()).hasSize(2);

    // the old artifact comes back: its proof is still on the list
    t.root()
        .writeExecutable(
            launcher("1.0.0"), JimfsRuntimeRoot.launcherContent("demo-ext", "1.0.0", 0));
    assertThat(listedVerified()).isTrue();
  }

  @Test
  void missingLauncherMakesTheProofStaleAndDoctorReportsIt() {
    loopx.install(version("1.0.0"), Mode.EXECUTE);
    t.root().delete(launcher("1.0.0"));
    t.launcher().clearLaunches();

    assertThat(listedVerified()).isFalse();
    DoctorReceipt packet = loopx.doctor(ID, Mode.EXECUTE);
    assertThatReceipt(packet)
        .doctor()
        .hasStatus(DoctorStatus.ENTRYPOINT_MISSING)
        .isNotAvailable()
        .isNotVerified();
    assertThat(packet.toJson().get("probed_entrypoint_identity").isNull()).isTrue();
    assertThat(t.launcher().launchCount()).isZero();
  }

  @Test
  void launcherChangedDuringTheProbeFailsClosed() {
    LoadedManifest m = version("1.0.0");
    t.launcher()
        .script(
            launcher("1.0.0"),
            request -> {
              t.root().writeExecutable(launcher("1.0.0"), "rewritten while probing\n");
              return LaunchResult.exited(0, new byte[0], new byte[0], Duration.ZERO);
            });

    assertFails(
        () -> loopx.install(m, Mode.EXECUTE),
        ErrorKind.DOCTOR_NOT_READY,
        notReady("doctor", "entrypoint_changed_during_probe, exit code 0"));
    assertThat(Files.exists(t.root().stateFile())).isFalse();
  }

  @Test
  void javaMainProvidersRunThroughTheFakeJava() {
    LoadedManifest m =
        t.stage(
            Manifests.standalone("java-ext").javaMain("com.example.Main"),
            ProcessScript.doctorExits(0));

    assertThatReceipt(loopx.install(m, Mode.EXECUTE)).doctor().hasStatus(DoctorStatus.READY);
    assertThat(t.launcher().launches())
        .singleElement()
        .satisfies(
            l ->
                assertThat(l.argv())
                    .containsExactly(
                        t.root().javaExecutable().toString(),
                        "-cp",
                        "/loopx/classes",
                        "com.example.Main",
                        "--doctor"));
    assertThat(
            loopx.state().get(ExtensionId.of("java-ext")).orElseThrow().active().entrypointPath())
        .isEmpty();
  }

  @Test
  void anImplementationOfAProvidedCapabilityInstalls() {
    LoadedManifest m =
        t.stage(
            Manifests.implementer("cap-ext", "cap-thing").provides("cap-thing"),
            ProcessScript.doctorExits(0));

    loopx.install(m, Mode.EXECUTE);

    assertThat(
            loopx
                .registry()
                .provider(ProviderId.of(ExtensionId.of("cap-ext")))
                .orElseThrow()
                .state()
                .ready())
        .isTrue();
  }

  @Test
  void commandsOnAnUnknownIdFailNotInstalled() {
    LoadedManifest m = version("1.0.0");
    List<ThrowingCallable> calls =
        List.of(
            () -> loopx.enable(ID, Mode.PREVIEW),
            () -> loopx.disable(ID, Mode.EXECUTE),
            () -> loopx.rollback(ID, Mode.PREVIEW),
            () -> loopx.doctor(ID, Mode.EXECUTE),
            () -> loopx.upgrade(m, Mode.PREVIEW));
    for (ThrowingCallable call : calls) {
      assertFails(call, ErrorKind.NOT_INSTALLED, "extension `demo-ext` is not installed");
    }
    assertThat(Files.exists(t.root().runtimeRoot())).isFalse();
    assertThat(t.launcher().launchCount()).isZero();
  }

  @Test
  void revisionsAreTheManifestsNotTheLaunchers() {
    Revision r1 = version("1.0.0").revision();
    t.root().writeExecutable(launcher("1.0.0"), "other bytes\n");

    assertThat(version("1.0.0").revision()).isEqualTo(r1);
  }

  /** The {@code doctor_not_ready} message of {@code demo-ext} with its detail. */
  private static String notReady(String what, String detail) {
    return what + " of `demo-ext` is not ready: provider_unavailable (" + detail + ")";
  }
}
