package io.loopx.runtime.internal.lifecycle;

import io.loopx.runtime.Mode;
import io.loopx.runtime.lifecycle.DoctorAllReceipt;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The {@link DoctorAllReceipt} ({@code loopx_extension_doctor_batch_v0}). */
record DoctorAllReceiptRecord(Mode mode, List<DoctorReceipt> packets) implements DoctorAllReceipt {
  /** The receipt schema version. */
  static final String SCHEMA_VERSION = "loopx_extension_doctor_batch_v0";

  DoctorAllReceiptRecord {
    Objects.requireNonNull(mode, "mode");
    packets = List.copyOf(packets);
  }

  @Override
  public int verifiedCount() {
    return mode.executes() ? (int) packets.stream().filter(DoctorReceipt::ready).count() : 0;
  }

  @Override
  public int blockedCount() {
    return mode.executes() ? packets.size() - verifiedCount() : 0;
  }

  @Override
  public String status() {
    if (!mode.executes()) {
      return packets.isEmpty() ? "ready" : "probe_required";
    }
    return blockedCount() == 0 ? "ready" : "blocked";
  }

  @Override
  public boolean ok() {
    return blockedCount() == 0;
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
    o.put("status", status());
    o.put("execute", mode.executes());
    o.put("enabled_count", packets.size());
    o.put("verified_count", verifiedCount());
    o.put("blocked_count", blockedCount());
    ArrayNode list = o.putArray("extensions");
    packets.forEach(p -> list.add(p.toJson()));
    return o;
  }
}
