package io.loopx.runtime.internal.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.lifecycle.ListReceipt;
import io.loopx.runtime.state.ActivationState;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The {@link ListReceipt} ({@code loopx_extension_state_v0}). */
record ListReceiptRecord(List<ListReceipt.Entry> extensions) implements ListReceipt {

  /** One installed extension. */
  record EntryRecord(
      ExtensionId id,
      boolean enabled,
      Revision activeRevision,
      boolean rollbackAvailable,
      boolean doctorVerified,
      int revisionCount)
      implements ListReceipt.Entry {
    EntryRecord {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(activeRevision, "activeRevision");
    }
  }

  ListReceiptRecord {
    extensions = List.copyOf(extensions);
  }

  @Override
  public boolean ok() {
    return true;
  }

  @Override
  public String schemaVersion() {
    return ActivationState.SCHEMA_VERSION;
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("ok", true);
    o.put("schema_version", schemaVersion());
    ArrayNode list = o.putArray("extensions");
    for (ListReceipt.Entry r : extensions) {
      ObjectNode row = list.addObject();
      row.put("id", r.id().value());
      row.put("enabled", r.enabled());
      row.put("active_revision", r.activeRevision().value());
      row.put("rollback_available", r.rollbackAvailable());
      row.put("doctor_verified", r.doctorVerified());
      row.put("revision_count", r.revisionCount());
    }
    return o;
  }
}
