package io.loopx.samples.cli;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The documented keys of every JSON object the CLI prints (docs/contract/doctor.md, §6, §10), in
 * order.
 */
final class Keys {
  private Keys() {}

  static final List<String> ERROR = List.of("ok", "schema_version", "status", "kind", "error");

  static final List<String> ACTIVATION =
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
          "rollback_available");

  static final List<String> ENABLE =
      List.of(
          "ok",
          "schema_version",
          "operation",
          "dry_run",
          "changed",
          "would_change",
          "extension_id",
          "enabled",
          "active_revision",
          "doctor");

  static final List<String> DISABLE = ENABLE.subList(0, ENABLE.size() - 1);

  static final List<String> ROLLBACK =
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
          "doctor");

  static final List<String> DOCTOR =
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
          "containment");

  static final List<String> BATCH =
      List.of(
          "ok",
          "schema_version",
          "status",
          "execute",
          "enabled_count",
          "verified_count",
          "blocked_count",
          "extensions");

  static final List<String> LIST = List.of("ok", "schema_version", "extensions");

  static final List<String> LIST_ROW =
      List.of(
          "id",
          "enabled",
          "active_revision",
          "rollback_available",
          "doctor_verified",
          "revision_count");

  static final List<String> CATALOG = List.of("ok", "schema_version", "capabilities", "providers");

  static final List<String> CAPABILITY =
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

  static final List<String> PROVIDER_STATE = List.of("declared", "installed", "enabled", "ready");

  static final List<String> PROVIDER =
      List.of("id", "origin", "declared", "installed", "enabled", "ready", "version");

  static final List<String> DETAIL = List.of("ok", "schema_version", "capability");

  static final List<String> IMPLEMENTATION = List.of("provider_id", "protocol", "provider_state");

  static final List<String> VALIDATION = List.of("ok", "schema_version", "manifests");

  static final List<String> VALIDATION_ENTRY = List.of("source", "revision", "manifest");

  static final List<String> DEMO = List.of("ok", "schema_version", "steps");

  static final List<String> DEMO_STEP = List.of("title", "command", "exit_code", "receipt");

  static final List<String> RUN =
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
          "input_schema_version",
          "containment");

  static final List<String> DISPATCH =
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
          "containment");

  static final List<String> ENVELOPE =
      List.of("schema_version", "action", "scope", "extension", "request_digest");

  /** Returns the property names of {@code object}, in order. */
  static List<String> of(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.properties().forEach(e -> names.add(e.getKey()));
    return names;
  }
}
