package io.loopx.testkit;

import static io.loopx.testkit.ReceiptAssert.assertThatReceipt;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Mode;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.run.RunStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class ReceiptAssertTest {
  static final ExtensionId ID = ExtensionId.of("demo-ext");

  final TestLoopx t = TestLoopx.create();

  @AfterEach
  void close() {
    t.close();
  }

  LoadedManifest staged(String version) {
    return t.stage(Manifests.standalone("demo-ext").version(version), ProcessScript.doctorExits(0));
  }

  /** A receipt whose JSON the test controls. */
  static Receipt receipt(boolean ok, ObjectNode json) {
    return new Receipt() {
      @Override
      public boolean ok() {
        return ok;
      }

      @Override
      public String schemaVersion() {
        return json.path("schema_version").asString("");
      }

      @Override
      public ObjectNode toJson() {
        return json.deepCopy();
      }
    };
  }

  @Test
  void passesOnEveryRealLifecycleReceipt() {
    var install = t.loopx().install(staged("1.0.0"), Mode.EXECUTE);
    var upgrade = t.loopx().upgrade(staged("2.0.0"), Mode.EXECUTE);
    var rollback = t.loopx().rollback(ID, Mode.PREVIEW);
    var disable = t.loopx().disable(ID, Mode.EXECUTE);
    var enable = t.loopx().enable(ID, Mode.EXECUTE);
    var doctor = t.loopx().doctor(ID, Mode.PREVIEW);
    var batch = t.loopx().doctorAll(Mode.EXECUTE);
    var list = t.loopx().list();

    for (Receipt r :
        new Receipt[] {install, upgrade, rollback, disable, enable, doctor, batch, list}) {
      assertThatReceipt(r).isOk().hasAllDocumentedKeys().hasOnlyDocumentedKeys();
    }
    assertThatReceipt(install)
        .hasSchemaVersion("loopx_extension_operation_v0")
        .hasValue("operation", "install")
        .hasValue("dry_run", false)
        .hasValue("changed", true)
        .hasValue("revision", install.revision().orElseThrow())
        .hasNullValue("previous_revision")
        .hasValue("doctor.status", "ready")
        .hasValue("doctor.external_writes_performed", false)
        .hasNullValue("doctor.failure_kind");
    assertThatReceipt(disable).doesNotHaveKey("doctor").hasValue("would_change", true);
    assertThatReceipt(batch)
        .hasSchemaVersion("loopx_extension_doctor_batch_v0")
        .hasValue("status", "ready")
        .hasValue("enabled_count", 1)
        .hasValue("verified_count", 1L)
        .hasValue("extensions[0].status", "ready")
        .hasValue("extensions[0].extension_id", ID);
    assertThatReceipt(list)
        .hasValue("extensions[0].revision_count", 2)
        .hasValue("extensions[0].doctor_verified", true);
    assertThatReceipt(doctor)
        .hasValue("status", "probe_required")
        .hasNullValue("entrypoint_identity");
  }

  @Test
  void failsOnTheWrongValueOrTypeOrAMissingKey() {
    var install = t.loopx().install(staged("1.0.0"), Mode.PREVIEW);
    ReceiptAssert a = assertThatReceipt(install);

    assertThatThrownBy(() -> a.hasValue("changed", true))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected <changed> to be <true> but was <false>");
    assertThatThrownBy(() -> a.hasValue("changed", "false")).isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> a.hasValue("enabled", false)).isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> a.hasNullValue("version")).isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> a.hasKey("doctor.nope"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("<doctor.nope>");
    assertThatThrownBy(() -> a.hasKey("extensions[0]")).isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> a.doesNotHaveKey("doctor")).isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> a.hasSchemaVersion("loopx_extension_doctor_v0"))
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(a::isNotOk).isInstanceOf(AssertionError.class);
  }

  @Test
  void failsOnANotOkBatch() {
    t.loopx().install(staged("1.0.0"), Mode.EXECUTE);
    t.launcher()
        .script(
            t.root().packageDirectory("demo-ext", "1.0.0").resolve("bin/provider"),
            ProcessScript.doctorExits(1));

    var batch = t.loopx().doctorAll(Mode.EXECUTE);

    assertThatReceipt(batch).isNotOk().hasValue("status", "blocked").hasAllDocumentedKeys();
    assertThatThrownBy(() -> assertThatReceipt(batch).isOk())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected an ok receipt");
  }

  @Test
  void failsWhenADocumentedKeyIsMissingAtAnyDepth() {
    ObjectNode json = t.loopx().install(staged("1.0.0"), Mode.PREVIEW).toJson();
    ObjectNode noRollback = json.deepCopy();
    noRollback.remove("rollback_available");
    ObjectNode noFailureKind = json.deepCopy();
    ((ObjectNode) noFailureKind.get("doctor")).remove("failure_kind");
    ObjectNode extra = json.deepCopy();
    extra.put("surprise", 1);

    assertThatReceipt(receipt(true, json)).hasAllDocumentedKeys();
    assertThatThrownBy(() -> assertThatReceipt(receipt(true, noRollback)).hasAllDocumentedKeys())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("[rollback_available]");
    assertThatThrownBy(() -> assertThatReceipt(receipt(true, noFailureKind)).hasAllDocumentedKeys())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("[doctor.failure_kind]");
    assertThatReceipt(receipt(true, extra)).hasAllDocumentedKeys();
    assertThatThrownBy(() -> assertThatReceipt(receipt(true, extra)).hasOnlyDocumentedKeys())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("unexpected surprise");
  }

  @Test
  void isolationIsTheOneOptionalKeyOfDoctorPackets() {
    ObjectNode json = t.loopx().install(staged("1.0.0"), Mode.PREVIEW).toJson();
    ObjectNode isolated = json.deepCopy();
    ((ObjectNode) isolated.get("doctor")).put("isolation", "bwrap");
    ObjectNode topLevel = json.deepCopy();
    topLevel.put("isolation", "bwrap");

    assertThatReceipt(receipt(true, isolated)).hasAllDocumentedKeys().hasOnlyDocumentedKeys();
    assertThatThrownBy(() -> assertThatReceipt(receipt(true, topLevel)).hasOnlyDocumentedKeys())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("unexpected isolation");
  }

  @Test
  void failsOnAnUnknownReceiptAndOnOkMismatches() {
    ObjectNode unknown =
        JsonNodeFactory.instance.objectNode().put("ok", true).put("schema_version", "x_v0");
    ObjectNode okFalse = JsonNodeFactory.instance.objectNode().put("ok", false);

    assertThatThrownBy(() -> assertThatReceipt(receipt(true, unknown)).hasAllDocumentedKeys())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no documented keys");
    assertThatThrownBy(() -> assertThatReceipt(receipt(true, okFalse)).isOk())
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> assertThatReceipt(receipt(false, unknown)).isNotOk())
        .isInstanceOf(AssertionError.class);
    assertThatReceipt(receipt(false, okFalse)).isNotOk();
    assertThat(DocumentedKeys.ofReceipt(unknown)).isEmpty();
    assertThat(DocumentedKeys.ofReceipt(okFalse.put("schema_version", "loopx_extension_doctor_v0")))
        .hasValueSatisfying(k -> assertThat(k).contains("probed_entrypoint_identity"));
  }

  @Test
  void typedAssertionsPassOnRealReceipts() {
    var preview = t.loopx().install(staged("1.0.0"), Mode.PREVIEW);
    var install = t.loopx().install(staged("1.0.0"), Mode.EXECUTE);
    var upgrade = t.loopx().upgrade(staged("2.0.0"), Mode.EXECUTE);
    var rollback = t.loopx().rollback(ID, Mode.PREVIEW);
    var disable = t.loopx().disable(ID, Mode.PREVIEW);
    var enable = t.loopx().enable(ID, Mode.EXECUTE);
    var doctor = t.loopx().doctor(ID, Mode.PREVIEW);

    assertThatReceipt(preview)
        .lifecycle()
        .hasOperation("install")
        .isPreview()
        .isNotChanged()
        .hasEnabled(null)
        .hasNoPreviousRevision()
        .doctor()
        .hasStatus(DoctorStatus.PROBE_REQUIRED)
        .isNotVerified();
    assertThatReceipt(install)
        .lifecycle()
        .isExecuted()
        .isChanged()
        .hasVersion("1.0.0")
        .hasRevision(install.revision().orElseThrow())
        .hasEnabled(true)
        .hasRollbackAvailable(false)
        .doctor()
        .hasStatus(DoctorStatus.READY)
        .isVerified()
        .isAvailable()
        .hasNoFailure()
        .hasVersion("1.0.0");
    assertThatReceipt(upgrade)
        .lifecycle()
        .hasOperation("upgrade")
        .hasPreviousRevision(install.revision().orElseThrow())
        .hasRollbackAvailable(true);
    assertThatReceipt(rollback).doctor().hasVersion("1.0.0");
    assertThatReceipt(disable)
        .lifecycle()
        .hasOperation("disable")
        .isPreview()
        .isNotChanged()
        .wouldChange()
        .isEnabled()
        .hasRevision(upgrade.revision().orElseThrow())
        .hasNoDoctor();
    assertThatReceipt(enable)
        .lifecycle()
        .isExecuted()
        .wouldNotChange()
        .doctor()
        .hasStatus(DoctorStatus.READY);
    assertThatReceipt(enable).doctor().isVerified();
    assertThatReceipt(doctor).doctor().hasStatus(DoctorStatus.PROBE_REQUIRED);
  }

  @Test
  void typedRunAssertionsPassOnRealRunReceipts() {
    ObjectNode answer = JsonNodeFactory.instance.objectNode().put("ok", true);
    t.loopx()
        .install(
            t.stage(
                Manifests.standalone("demo-ext"),
                ProcessScript.respondsWithJson(answer).onDoctor(ProcessScript.exits(0))),
            Mode.EXECUTE);
    byte[] request = "{\"schema_version\":\"demo_v0\"}".getBytes(UTF_8);

    assertThatReceipt(t.loopx().run(RunRequest.of(ID, request), Mode.PREVIEW))
        .run()
        .isPreview()
        .hasStatus(RunStatus.READY)
        .hasNoFailure()
        .hasNoExitCode()
        .hasNoProviderResult();
    assertThatReceipt(t.loopx().run(RunRequest.of(ID, request), Mode.EXECUTE))
        .run()
        .isExecuted()
        .hasStatus(RunStatus.SUCCEEDED)
        .hasExitCode(0)
        .hasProviderResult(answer);
    t.launcher()
        .script(
            t.root().packageDirectory("demo-ext", "1.0.0").resolve("bin/provider"),
            ProcessScript.timesOut());
    assertThatReceipt(t.loopx().run(RunRequest.of(ID, request), Mode.EXECUTE))
        .run()
        .hasStatus(RunStatus.PROVIDER_FAILED)
        .hasFailure(RunFailure.TIMEOUT);
  }

  @Test
  void typedAssertionsFailOnTheWrongValueOrReceipt() {
    var install = t.loopx().install(staged("1.0.0"), Mode.EXECUTE);
    var disable = t.loopx().disable(ID, Mode.EXECUTE);
    var list = t.loopx().list();

    assertThatThrownBy(() -> assertThatReceipt(install).doctor().hasStatus(DoctorStatus.DISABLED))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected <status> to be <disabled>")
        .hasMessageContaining("READY");
    assertThatThrownBy(() -> assertThatReceipt(install).doctor().isNotVerified())
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(
            () -> assertThatReceipt(install).doctor().hasFailure(DoctorFailure.PROBE_NONZERO_EXIT))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("<failure_kind>");
    assertThatThrownBy(() -> assertThatReceipt(install).lifecycle().isPreview())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("<dry_run>");
    assertThatThrownBy(() -> assertThatReceipt(install).lifecycle().hasEnabled(null))
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(
            () ->
                assertThatReceipt(install)
                    .lifecycle()
                    .hasPreviousRevision(install.revision().orElseThrow()))
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> assertThatReceipt(list).lifecycle())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected a LifecycleReceipt but was ListReceipt");
    assertThatThrownBy(() -> assertThatReceipt(install).run())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected a RunReceipt");
    assertThatThrownBy(() -> assertThatReceipt(disable).lifecycle().hasRollbackAvailable(false))
        .as("a disable receipt has no rollback_available")
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("<rollback_available>");
    assertThatThrownBy(() -> assertThatReceipt(disable).lifecycle().hasVersion("1.0.0"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("<version>");
    assertThatThrownBy(() -> assertThatReceipt(disable).lifecycle().isEnabled())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("<enabled>");
    assertThatThrownBy(() -> assertThatReceipt(disable).lifecycle().doctor())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the disable receipt has none");
    assertThatThrownBy(() -> assertThatReceipt(disable).doctor())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected a doctor packet");
    assertThatThrownBy(() -> assertThatReceipt(list).doctor())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("ListReceipt");
    assertThatThrownBy(
            () -> assertThatReceipt(t.loopx().enable(ID, Mode.EXECUTE)).lifecycle().hasNoDoctor())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected no doctor packet");
  }

  @Test
  void typedAssertionsCoverUninstall() {
    var install = t.loopx().install(staged("1.0.0"), Mode.EXECUTE);
    t.loopx().disable(ID, Mode.EXECUTE);
    var preview = t.loopx().uninstall(ID, Mode.PREVIEW);

    assertThatReceipt(preview)
        .lifecycle()
        .hasOperation("uninstall")
        .isPreview()
        .isNotChanged()
        .hasRemovedRevisions(install.revision().orElseThrow())
        .hasNoDoctor();
    assertThatReceipt(t.loopx().uninstall(ID, Mode.EXECUTE))
        .lifecycle()
        .isExecuted()
        .isChanged()
        .hasRemovedRevisions(install.revision().orElseThrow());
    assertThatThrownBy(() -> assertThatReceipt(preview).lifecycle().hasRemovedRevisions())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("<removed_revisions>");
    assertThatThrownBy(() -> assertThatReceipt(preview).lifecycle().isEnabled())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("<enabled>");
  }

  @Test
  void jsonIsACopy() {
    var a = assertThatReceipt(t.loopx().list());
    a.json().put("ok", false);

    a.isOk();
  }
}
