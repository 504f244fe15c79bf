package io.loopx.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * The documented keys, in wire order, of every JSON object the LoopX library writes: the lifecycle
 * receipts and doctor packets (docs/contract/lifecycle.md, doctor.md), the run and dispatch
 * receipts (run.md, dispatch.md), the execution envelope (dispatch.md), the catalog read models
 * (registry.md) and the scaffold receipt (scaffold.md). One list per object, shared by {@link
 * ReceiptAssert} and by hosts' tests that check what they print, so a host keeps lists only for its
 * own objects.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class DocumentedKeys {
  /** A doctor packet ({@code loopx_extension_doctor_v0}). */
  public static final List<String> DOCTOR =
      List.of(
          "ok",
          "schema_version",
          "extension_id",
          "version",
          "status",
          "available",
          "verified",
          "entrypoint_identity",
          "probed_entrypoint_identity",
          "failure_kind",
          "external_writes_performed",
          "containment",
          "memory_limit_bytes",
          "exit_code",
          "stderr_tail",
          "entrypoint_lookup",
          "handshake_line");

  /** An install or upgrade receipt ({@code loopx_extension_operation_v0}). */
  public static final List<String> ACTIVATION =
      List.of(
          "ok",
          "schema_version",
          "operation",
          "dry_run",
          "changed",
          "extension_id",
          "version",
          "revision",
          "previous_revision",
          "enabled",
          "doctor",
          "rollback_available",
          "target_identity_proven",
          "warnings");

  /** A disable receipt ({@code loopx_extension_operation_v0}). */
  public static final List<String> DISABLE =
      List.of(
          "ok",
          "schema_version",
          "operation",
          "dry_run",
          "changed",
          "would_change",
          "extension_id",
          "enabled",
          "active_revision");

  /** An enable receipt ({@code loopx_extension_operation_v0}): the disable keys and the doctor. */
  public static final List<String> ENABLE = append(DISABLE, "doctor");

  /** A rollback receipt ({@code loopx_extension_operation_v0}). */
  public static final List<String> ROLLBACK =
      List.of(
          "ok",
          "schema_version",
          "operation",
          "dry_run",
          "changed",
          "extension_id",
          "version",
          "revision",
          "previous_revision",
          "enabled",
          "doctor",
          "target_identity_proven");

  /** An uninstall receipt ({@code loopx_extension_operation_v0}). */
  public static final List<String> UNINSTALL =
      List.of(
          "ok",
          "schema_version",
          "operation",
          "dry_run",
          "changed",
          "extension_id",
          "removed_revisions");

  /** A doctor batch ({@code loopx_extension_doctor_batch_v0}). */
  public static final List<String> DOCTOR_BATCH =
      List.of(
          "ok",
          "schema_version",
          "status",
          "execute",
          "enabled_count",
          "verified_count",
          "blocked_count",
          "extensions");

  /** The extension list ({@code loopx_extension_state_v0}). */
  public static final List<String> LIST = List.of("ok", "schema_version", "extensions");

  /** One row of the extension list. */
  public static final List<String> LIST_ROW =
      List.of(
          "id",
          "enabled",
          "active_revision",
          "rollback_available",
          "doctor_verified",
          "revision_count");

  /** A run receipt ({@code loopx_extension_run_receipt_v0}). */
  public static final List<String> RUN =
      List.of(
          "ok",
          "schema_version",
          "operation",
          "extension_id",
          "provider_version",
          "revision",
          "protocol",
          "dry_run",
          "executed",
          "status",
          "failure_kind",
          "exit_code",
          "provider_result",
          "stderr_tail",
          "input_schema_version",
          "containment",
          "memory_limit_bytes");

  /** A dispatch receipt ({@code loopx_capability_dispatch_v0}). */
  public static final List<String> DISPATCH =
      List.of(
          "ok",
          "schema_version",
          "capability_id",
          "protocol",
          "action",
          "extension_id",
          "revision",
          "dry_run",
          "executed",
          "status",
          "failure_kind",
          "exit_code",
          "provider_result",
          "stderr_tail",
          "containment",
          "memory_limit_bytes");

  /** An activation check ({@code loopx_extension_activation_v0}). */
  public static final List<String> ACTIVATION_CHECK =
      List.of(
          "ok",
          "schema_version",
          "extension_id",
          "provider_version",
          "revision",
          "enabled",
          "doctor_verified",
          "required_permissions");

  /** The execution envelope a dispatch binds into the request. */
  public static final List<String> ENVELOPE =
      List.of("schema_version", "action", "scope", "extension", "request_digest");

  /** The capability catalog ({@code loopx_capability_catalog_v0}). */
  public static final List<String> CATALOG =
      List.of("ok", "schema_version", "capabilities", "providers");

  /** One capability of the catalog (a capability detail starts with these keys). */
  public static final List<String> CAPABILITY =
      List.of(
          "id",
          "title",
          "status",
          "origin",
          "visibility",
          "provider_id",
          "provider_state",
          "real_world_anchor",
          "entry_command",
          "next_real_step",
          "implementation_provider_count");

  /** A provider state object. */
  public static final List<String> PROVIDER_STATE =
      List.of("declared", "installed", "enabled", "ready");

  /** One provider of the catalog. */
  public static final List<String> PROVIDER =
      List.of("id", "origin", "declared", "installed", "enabled", "ready", "version");

  /** A capability detail ({@code loopx_capability_detail_v0}). */
  public static final List<String> DETAIL = List.of("ok", "schema_version", "capability");

  /** One implementation provider of a capability detail. */
  public static final List<String> IMPLEMENTATION =
      List.of("provider_id", "protocol", "provider_state");

  /** A scaffold receipt ({@code loopx_extension_scaffold_v0}, docs/contract/scaffold.md). */
  public static final List<String> SCAFFOLD =
      List.of(
          "ok",
          "schema_version",
          "operation",
          "dry_run",
          "changed",
          "extension_id",
          "version",
          "destination",
          "protocol",
          "permissions",
          "starter_kind",
          "language",
          "capability_id",
          "managed_entrypoint",
          "files",
          "next_commands");

  private static final Map<String, List<String>> OPERATIONS =
      Map.of(
          "install", ACTIVATION,
          "upgrade", ACTIVATION,
          "enable", ENABLE,
          "disable", DISABLE,
          "rollback", ROLLBACK);

  private DocumentedKeys() {}

  /** Returns the property names of {@code object}, in order (empty for a non-object). */
  public static List<String> of(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.properties().forEach(e -> names.add(e.getKey()));
    return List.copyOf(names);
  }

  /**
   * Returns the documented top-level keys of a receipt's JSON, chosen by its {@code schema_version}
   * and, for {@code loopx_extension_operation_v0}, its {@code operation}; empty for an object this
   * testkit does not know.
   */
  public static Optional<List<String>> ofReceipt(JsonNode receipt) {
    String schema = receipt.path("schema_version").asString("");
    return switch (schema) {
      case "loopx_extension_doctor_v0" -> Optional.of(DOCTOR);
      case "loopx_extension_doctor_batch_v0" -> Optional.of(DOCTOR_BATCH);
      case "loopx_extension_state_v0" -> Optional.of(LIST);
      case "loopx_extension_run_receipt_v0" -> Optional.of(RUN);
      case "loopx_capability_dispatch_v0" -> Optional.of(DISPATCH);
      case "loopx_extension_activation_v0" -> Optional.of(ACTIVATION_CHECK);
      case "loopx_extension_operation_v0" ->
          Optional.ofNullable(OPERATIONS.get(receipt.path("operation").asString("")));
      default -> Optional.empty();
    };
  }

  private static List<String> append(List<String> keys, String key) {
    List<String> all = new ArrayList<>(keys);
    all.add(key);
    return List.copyOf(all);
  }
}
