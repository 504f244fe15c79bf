package io.loopx.runtime.lifecycle;

import io.loopx.runtime.Receipt;
import java.util.List;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Receipt of {@code doctor --all-enabled} ({@code loopx_extension_doctor_batch_v0}). In a preview
 * nothing is probed: the status is {@code probe_required} if any extension is enabled, else {@code
 * ready}; executed, it is {@code ready} or {@code blocked} (then {@code ok} is false).
 *
 * @param execute whether the probes were executed
 * @param packets the packets of the enabled extensions, by id
 */
@API(status = API.Status.STABLE, since = "0.1")
public record DoctorBatchReceipt(boolean execute, List<DoctorReceipt> packets) implements Receipt {
  /** The receipt schema version. */
  public static final String SCHEMA_VERSION = "loopx_extension_doctor_batch_v0";

  /** Copies the packets. */
  public DoctorBatchReceipt {
    packets = List.copyOf(packets);
  }

  /** Returns the number of packets whose status is ready. */
  public int verifiedCount() {
    return execute ? (int) packets.stream().filter(DoctorReceipt::ready).count() : 0;
  }

  /** Returns the number of executed packets that are not ready. */
  public int blockedCount() {
    return execute ? packets.size() - verifiedCount() : 0;
  }

  /** Returns {@code ready}, {@code blocked} or {@code probe_required}. */
  public String status() {
    if (!execute) {
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
    o.put("execute", execute);
    o.put("enabled_count", packets.size());
    o.put("verified_count", verifiedCount());
    o.put("blocked_count", blockedCount());
    ArrayNode list = o.putArray("extensions");
    packets.forEach(p -> list.add(p.toJson()));
    return o;
  }
}
