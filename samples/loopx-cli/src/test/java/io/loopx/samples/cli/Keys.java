package io.loopx.samples.cli;

import io.loopx.testkit.DocumentedKeys;
import java.util.ArrayList;
import java.util.List;

/**
 * The documented keys, in order, of the JSON objects that are the CLI's own (docs/contract/cli.md,
 * errors.md): the error packet, manifest validation and the demo walk. The library's objects (the
 * receipts, doctor packets, catalog, envelope) are the testkit's {@link DocumentedKeys}.
 */
final class Keys {
  private Keys() {}

  static final List<String> ERROR = List.of("ok", "schema_version", "status", "kind", "error");

  /** The error packet of a manifest with more than one problem: the keys above and its problems. */
  static final List<String> MANIFEST_PROBLEMS_ERROR =
      List.of("ok", "schema_version", "status", "kind", "error", "problems");

  /** The error packet of {@code doctor_not_ready}: the keys above and the doctor packet. */
  static final List<String> DOCTOR_NOT_READY_ERROR =
      List.of("ok", "schema_version", "status", "kind", "error", "doctor");

  static final List<String> VALIDATION = List.of("ok", "schema_version", "manifests");

  static final List<String> VALIDATION_ENTRY = List.of("source", "revision", "manifest");

  static final List<String> DEMO = List.of("ok", "schema_version", "steps", "warm_workers");

  static final List<String> DEMO_WARM =
      List.of(
          "recalls", "one_shot_ms", "worker_ms", "worker_answered", "failures", "processes_left");

  static final List<String> DEMO_STEP = List.of("title", "command", "exit_code", "receipt");

  /**
   * {@code keys} (a doctor packet's or a run receipt's) with {@code isolation} after {@code
   * memory_limit_bytes}, where the library writes it: the CLI sets no isolation policy, so its
   * standalone extensions are probed and run with {@code WHEN_AVAILABLE} and say what applied
   * (docs/process.md#isolation).
   */
  static List<String> isolated(List<String> keys) {
    List<String> all = new ArrayList<>(keys);
    all.add(all.indexOf("memory_limit_bytes") + 1, "isolation");
    return List.copyOf(all);
  }
}
