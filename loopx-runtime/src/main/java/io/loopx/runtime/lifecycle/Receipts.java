package io.loopx.runtime.lifecycle;

import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/** JSON helpers shared by the lifecycle receipts (package-private). */
final class Receipts {
  /** The schema of install, upgrade, enable, disable and rollback receipts. */
  static final String OPERATION_SCHEMA = "loopx_extension_operation_v0";

  private Receipts() {}

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
