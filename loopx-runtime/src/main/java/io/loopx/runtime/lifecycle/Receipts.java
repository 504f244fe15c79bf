package io.loopx.runtime.lifecycle;

import java.util.Optional;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** JSON helpers shared by the lifecycle receipts (package-private). */
final class Receipts {
  /** The schema of install, upgrade, enable, disable, rollback and uninstall receipts. */
  static final String OPERATION_SCHEMA = "loopx_extension_operation_v0";

  private Receipts() {}

  /**
   * Returns the head shared by the operation receipts: {@code ok, schema_version, operation,
   * dry_run, changed}, in that order.
   */
  static ObjectNode operationHead(boolean ok, String operation, boolean dryRun, boolean changed) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("ok", ok);
    o.put("schema_version", OPERATION_SCHEMA);
    o.put("operation", operation);
    o.put("dry_run", dryRun);
    o.put("changed", changed);
    return o;
  }

  static void putOptional(ObjectNode node, String key, Optional<?> value) {
    if (value.isEmpty()) {
      node.putNull(key);
    } else if (value.get() instanceof Boolean b) {
      node.put(key, b);
    } else {
      node.put(key, value.get().toString());
    }
  }
}
