package io.loopx.runtime.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.Receipt;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Receipt of {@code uninstall} ({@code loopx_extension_operation_v0}).
 *
 * @param dryRun whether this was a preview
 * @param changed whether the entry was removed
 * @param extensionId the extension
 * @param removedRevisions the revisions of the history that were (in a preview: would be) removed,
 *     oldest first
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record UninstallReceipt(
    boolean dryRun, boolean changed, ExtensionId extensionId, List<Revision> removedRevisions)
    implements Receipt {

  /** Rejects nulls and copies the list. */
  public UninstallReceipt {
    Objects.requireNonNull(extensionId, "extensionId");
    removedRevisions = List.copyOf(removedRevisions);
  }

  @Override
  public boolean ok() {
    return true;
  }

  @Override
  public String schemaVersion() {
    return Receipts.OPERATION_SCHEMA;
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode o = Receipts.operationHead(ok(), "uninstall", dryRun, changed);
    o.put("extension_id", extensionId.value());
    ArrayNode removed = o.putArray("removed_revisions");
    removedRevisions.forEach(r -> removed.add(r.value()));
    return o;
  }
}
