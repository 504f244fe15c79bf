package io.loopx.runtime.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.state.ActivationState;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code list} result ({@code loopx_extension_state_v0}): installed extensions sorted by id,
 * with staleness evaluated at read time.
 *
 * @param extensions one row per installed extension, sorted by id
 */
@API(status = API.Status.STABLE, since = "0.1")
public record ExtensionListReceipt(List<Row> extensions) implements Receipt {

  /**
   * One installed extension.
   *
   * @param id the extension
   * @param enabled the enabled bit
   * @param activeRevision the active revision
   * @param rollbackAvailable whether a rollback revision is recorded
   * @param doctorVerified a fresh doctor proof covers the current runtime (false when disabled)
   * @param revisionCount the number of recorded revisions
   */
  public record Row(
      ExtensionId id,
      boolean enabled,
      Revision activeRevision,
      boolean rollbackAvailable,
      boolean doctorVerified,
      int revisionCount) {
    /** Rejects nulls. */
    public Row {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(activeRevision, "activeRevision");
    }
  }

  /** Copies the rows. */
  public ExtensionListReceipt {
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
    for (Row r : extensions) {
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
