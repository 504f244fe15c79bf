package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One {@link LifecycleReceipt} for the six operations: each operation's JSON keeps its documented
 * keys in their order (docs/contract/lifecycle.md), and the accessors agree with the JSON, empty
 * where the operation's receipt has no such key.
 */
class LifecycleReceiptTest {
  static final ExtensionId ID = LifecycleTest.ID;
  static final List<String> HEAD =
      List.of("ok", "schema_version", "operation", "dry_run", "changed");
  static final List<String> ACTIVATION =
      keys(
          "extension_id",
          "version",
          "revision",
          "previous_revision",
          "enabled",
          "doctor",
          "rollback_available",
          "target_identity_proven",
          "warnings");
  static final List<String> ENABLE =
      keys("would_change", "extension_id", "enabled", "active_revision", "doctor");
  static final List<String> DISABLE =
      keys("would_change", "extension_id", "enabled", "active_revision");
  static final List<String> ROLLBACK =
      keys(
          "extension_id",
          "version",
          "revision",
          "previous_revision",
          "enabled",
          "doctor",
          "target_identity_proven");
  static final List<String> UNINSTALL = keys("extension_id", "removed_revisions");

  @TempDir Path tmp;

  @Test
  void everyOperationWritesItsOwnKeysAndTheAccessorsAgree() throws IOException {
    LifecycleTest.writeProvider(tmp.resolve("demo-ext"), "1.0.0");
    LifecycleTest.writeProvider(tmp.resolve("demo-ext-2"), "2.0.0");
    LoadedManifest v1 = LoadedManifest.load(tmp.resolve("demo-ext/extension.toml"));
    LoadedManifest v2 = LoadedManifest.load(tmp.resolve("demo-ext-2/extension.toml"));
    Loopx loopx =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .build();

    LifecycleReceipt installPreview = check(loopx.install(v1, Mode.PREVIEW), "install", ACTIVATION);
    assertThat(installPreview.mode()).isEqualTo(Mode.PREVIEW);
    assertThat(installPreview.changed()).isFalse();
    assertThat(installPreview.enabled()).isEmpty();
    assertThat(installPreview.previousRevision()).isEmpty();
    assertThat(installPreview.rollbackAvailable()).contains(false);
    assertThat(installPreview.doctor().orElseThrow().status())
        .isEqualTo(DoctorStatus.PROBE_REQUIRED);

    LifecycleReceipt install = check(loopx.install(v1, Mode.EXECUTE), "install", ACTIVATION);
    Revision first = install.revision().orElseThrow();
    assertThat(install.mode()).isEqualTo(Mode.EXECUTE);
    assertThat(install.changed()).isTrue();
    assertThat(install.enabled()).contains(true);
    assertThat(install.version()).contains("1.0.0");
    assertThat(install.targetIdentityProven()).contains(false);
    assertThat(install.removedRevisions()).isEmpty();

    LifecycleReceipt upgrade = check(loopx.upgrade(v2, Mode.EXECUTE), "upgrade", ACTIVATION);
    Revision second = upgrade.revision().orElseThrow();
    assertThat(upgrade.previousRevision()).contains(first);
    assertThat(upgrade.rollbackAvailable()).contains(true);
    assertThat(upgrade.warnings()).isEmpty();

    LifecycleReceipt disablePreview = check(loopx.disable(ID, Mode.PREVIEW), "disable", DISABLE);
    assertThat(disablePreview.enabled()).contains(true);
    assertThat(disablePreview.toJson().get("would_change").booleanValue()).isTrue();
    LifecycleReceipt disable = check(loopx.disable(ID, Mode.EXECUTE), "disable", DISABLE);
    assertThat(disable.enabled()).contains(false);
    assertThat(disable.revision()).contains(second);
    assertThat(disable.doctor()).isEmpty();
    assertThat(disable.version()).isEmpty();
    assertThat(disable.previousRevision()).isEmpty();
    assertThat(disable.rollbackAvailable()).isEmpty();
    assertThat(disable.targetIdentityProven()).isEmpty();

    LifecycleReceipt enable = check(loopx.enable(ID, Mode.EXECUTE), "enable", ENABLE);
    assertThat(enable.changed()).isTrue();
    assertThat(enable.enabled()).contains(true);
    assertThat(enable.doctor().orElseThrow().ready()).isTrue();

    LifecycleReceipt rollback = check(loopx.rollback(ID, Mode.EXECUTE), "rollback", ROLLBACK);
    assertThat(rollback.revision()).contains(first);
    assertThat(rollback.previousRevision()).contains(second);
    assertThat(rollback.version()).contains("1.0.0");
    assertThat(rollback.enabled()).contains(true);
    assertThat(rollback.rollbackAvailable()).isEmpty();
    assertThat(rollback.targetIdentityProven()).contains(true);
    assertThat(rollback.warnings()).isEmpty();

    loopx.disable(ID, Mode.EXECUTE);
    LifecycleReceipt uninstallPreview =
        check(loopx.uninstall(ID, Mode.PREVIEW), "uninstall", UNINSTALL);
    assertThat(uninstallPreview.changed()).isFalse();
    LifecycleReceipt uninstall = check(loopx.uninstall(ID, Mode.EXECUTE), "uninstall", UNINSTALL);
    assertThat(uninstall.changed()).isTrue();
    assertThat(uninstall.removedRevisions()).containsExactly(first, second);
    assertThat(uninstall.revision()).isEmpty();
    assertThat(uninstall.enabled()).isEmpty();
    assertThat(uninstall.doctor()).isEmpty();
    assertThat(uninstall.version()).isEmpty();
  }

  /** Checks the keys and their order, and the head's agreement with the accessors. */
  private static LifecycleReceipt check(
      LifecycleReceipt receipt, String operation, List<String> keys) {
    ObjectNode json = receipt.toJson();
    assertThat(json.propertyNames()).as(operation).containsExactlyElementsOf(keys);
    assertThat(receipt.ok()).isTrue();
    assertThat(receipt.schemaVersion()).isEqualTo("loopx_extension_operation_v0");
    assertThat(receipt.operation()).isEqualTo(operation);
    assertThat(json.get("operation").asString()).isEqualTo(operation);
    assertThat(json.get("dry_run").booleanValue()).isEqualTo(receipt.mode() == Mode.PREVIEW);
    assertThat(json.get("changed").booleanValue()).isEqualTo(receipt.changed());
    assertThat(json.get("extension_id").asString()).isEqualTo(receipt.extensionId().value());
    JsonNode revision = json.has("revision") ? json.get("revision") : json.get("active_revision");
    assertThat(receipt.revision().map(Revision::value))
        .isEqualTo(revision == null ? Optional.empty() : Optional.of(revision.asString()));
    JsonNode enabled = json.get("enabled");
    assertThat(receipt.enabled())
        .isEqualTo(
            enabled == null || enabled.isNull()
                ? Optional.empty()
                : Optional.of(enabled.booleanValue()));
    assertThat(receipt.doctor().isPresent()).isEqualTo(json.has("doctor"));
    return receipt;
  }

  private static List<String> keys(String... tail) {
    List<String> all = new ArrayList<>(HEAD);
    all.addAll(List.of(tail));
    return List.copyOf(all);
  }
}
