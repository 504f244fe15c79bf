package io.loopx.runtime.internal.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.runtime.Mode;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link LifecycleReceipt} of every operation; {@link #toJson()} writes the keys of the
 * operation's receipt (docs/contract/lifecycle.md): install and upgrade, enable and disable,
 * rollback, uninstall each have their own. Built by the factories, one per receipt shape.
 *
 * @param wouldChange whether an enable or disable flips (or would flip) the enabled bit ({@code
 *     would_change}, wire only)
 */
record LifecycleReceiptRecord(
    String operation,
    Mode mode,
    boolean changed,
    ExtensionId extensionId,
    Optional<Revision> revision,
    Optional<Revision> previousRevision,
    Optional<Boolean> enabled,
    Optional<DoctorReceipt> doctor,
    Optional<String> version,
    List<String> warnings,
    List<Revision> removedRevisions,
    Optional<Boolean> rollbackAvailable,
    Optional<Boolean> targetIdentityProven,
    boolean wouldChange)
    implements LifecycleReceipt {
  /** The schema of install, upgrade, enable, disable, rollback and uninstall receipts. */
  static final String SCHEMA_VERSION = "loopx_extension_operation_v0";

  LifecycleReceiptRecord {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(previousRevision, "previousRevision");
    Objects.requireNonNull(enabled, "enabled");
    Objects.requireNonNull(doctor, "doctor");
    Objects.requireNonNull(version, "version");
    warnings = List.copyOf(warnings);
    removedRevisions = List.copyOf(removedRevisions);
    Objects.requireNonNull(rollbackAvailable, "rollbackAvailable");
    Objects.requireNonNull(targetIdentityProven, "targetIdentityProven");
  }

  /** Returns the receipt of an install of {@code m}: executed, it enabled the candidate. */
  static LifecycleReceiptRecord install(ExtensionManifest m, Mode mode, DoctorReceipt doctor) {
    return activation("install", m, mode, Optional.empty(), doctor, false, false);
  }

  /** Returns the receipt of an upgrade to {@code m} from {@code previous}. */
  static LifecycleReceiptRecord upgrade(
      ExtensionManifest m, Mode mode, Revision previous, DoctorReceipt doctor, boolean proven) {
    return activation("upgrade", m, mode, Optional.of(previous), doctor, true, proven);
  }

  private static LifecycleReceiptRecord activation(
      String operation,
      ExtensionManifest m,
      Mode mode,
      Optional<Revision> previous,
      DoctorReceipt doctor,
      boolean rollbackAvailable,
      boolean proven) {
    boolean execute = mode.executes();
    return new LifecycleReceiptRecord(
        operation,
        mode,
        execute,
        m.id(),
        Optional.of(m.revision()),
        previous,
        execute ? Optional.of(true) : Optional.empty(),
        Optional.of(doctor),
        Optional.of(m.version()),
        warnings(m),
        List.of(),
        Optional.of(rollbackAvailable),
        Optional.of(proven),
        false);
  }

  /**
   * The warnings of an install or upgrade receipt: an extension that implements a capability but
   * whose runtime requires none of its permissions passes no dispatch's permission contract
   * (docs/contract/dispatch.md#permission-contract), so it can never be dispatched.
   */
  private static List<String> warnings(ExtensionManifest m) {
    if (m.implementations().isEmpty()
        || m.runtime().map(rt -> !rt.requiredPermissions().isEmpty()).orElse(true)) {
      return List.of();
    }
    return List.of(
        "extension `"
            + m.id()
            + "` implements "
            + m.implementations().stream()
                .map(i -> "`" + i.capabilityId().value() + "`")
                .distinct()
                .collect(Collectors.joining(", "))
            + " but its runtime requires none of its permissions, so no dispatch can pass the"
            + " permission contract: name the permission an operation needs in both `permissions`"
            + " and `runtime.required_permissions`");
  }

  /** Returns the receipt of an enable (with its doctor packet) or a disable (without). */
  static LifecycleReceiptRecord toggle(
      String operation,
      Mode mode,
      boolean changed,
      boolean wouldChange,
      ExtensionId id,
      boolean enabled,
      Revision active,
      Optional<DoctorReceipt> doctor) {
    return new LifecycleReceiptRecord(
        operation,
        mode,
        changed,
        id,
        Optional.of(active),
        Optional.empty(),
        Optional.of(enabled),
        doctor,
        Optional.empty(),
        List.of(),
        List.of(),
        Optional.empty(),
        Optional.empty(),
        wouldChange);
  }

  /** Returns the receipt of a rollback to {@code target}; executed, it changed the state. */
  static LifecycleReceiptRecord rollback(
      Mode mode,
      ExtensionId id,
      String version,
      Revision target,
      Revision previous,
      boolean enabled,
      DoctorReceipt doctor,
      boolean proven) {
    return new LifecycleReceiptRecord(
        "rollback",
        mode,
        mode.executes(),
        id,
        Optional.of(target),
        Optional.of(previous),
        Optional.of(enabled),
        Optional.of(doctor),
        Optional.of(version),
        List.of(),
        List.of(),
        Optional.empty(),
        Optional.of(proven),
        false);
  }

  /** Returns the receipt of an uninstall; executed, it removed the entry. */
  static LifecycleReceiptRecord uninstall(Mode mode, ExtensionId id, List<Revision> removed) {
    return new LifecycleReceiptRecord(
        "uninstall",
        mode,
        mode.executes(),
        id,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        List.of(),
        removed,
        Optional.empty(),
        Optional.empty(),
        false);
  }

  @Override
  public boolean ok() {
    return true;
  }

  @Override
  public String schemaVersion() {
    return SCHEMA_VERSION;
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("ok", ok());
    o.put("schema_version", SCHEMA_VERSION);
    o.put("operation", operation);
    o.put("dry_run", !mode.executes());
    o.put("changed", changed);
    switch (operation) {
      case "enable", "disable" -> {
        o.put("would_change", wouldChange);
        o.put("extension_id", extensionId.value());
        o.put("enabled", enabled.orElseThrow());
        o.put("active_revision", revision.orElseThrow().value());
        doctor.ifPresent(d -> o.set("doctor", d.toJson()));
      }
      case "uninstall" -> {
        o.put("extension_id", extensionId.value());
        ArrayNode removed = o.putArray("removed_revisions");
        removedRevisions.forEach(r -> removed.add(r.value()));
      }
      default -> {
        // install, upgrade and rollback
        o.put("extension_id", extensionId.value());
        o.put("version", version.orElseThrow());
        o.put("revision", revision.orElseThrow().value());
        putOptional(o, "previous_revision", previousRevision.map(Revision::value));
        putOptional(o, "enabled", enabled);
        o.set("doctor", doctor.orElseThrow().toJson());
        rollbackAvailable.ifPresent(a -> o.put("rollback_available", a));
        o.put("target_identity_proven", targetIdentityProven.orElseThrow());
        if (!operation.equals("rollback")) {
          ArrayNode list = o.putArray("warnings");
          warnings.forEach(list::add);
        }
      }
    }
    return o;
  }

  private static void putOptional(ObjectNode node, String key, Optional<?> value) {
    if (value.isEmpty()) {
      node.putNull(key);
    } else if (value.get() instanceof Boolean b) {
      node.put(key, b);
    } else {
      node.put(key, value.get().toString());
    }
  }
}
