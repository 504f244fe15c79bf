package io.loopx.runtime.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.Receipt;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * Receipt of {@code rollback} ({@code loopx_extension_operation_v0}).
 *
 * @param dryRun whether this was a preview
 * @param changed whether state was written
 * @param extensionId the extension
 * @param version the target revision's version
 * @param revision the target revision
 * @param previousRevision the revision active before the rollback
 * @param enabled the enabled bit after the command (in a preview: the current value)
 * @param doctor the target's doctor packet
 */
@API(status = API.Status.STABLE, since = "0.1")
public record RollbackReceipt(
    boolean dryRun,
    boolean changed,
    ExtensionId extensionId,
    String version,
    Revision revision,
    Revision previousRevision,
    boolean enabled,
    DoctorReceipt doctor)
    implements Receipt {

  /** Rejects nulls. */
  public RollbackReceipt {
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(previousRevision, "previousRevision");
    Objects.requireNonNull(doctor, "doctor");
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
    ObjectNode o = Receipts.operationHead(ok(), "rollback", dryRun, changed);
    o.put("extension_id", extensionId.value());
    o.put("version", version);
    o.put("revision", revision.value());
    o.put("previous_revision", previousRevision.value());
    o.put("enabled", enabled);
    o.set("doctor", doctor.toJson());
    return o;
  }
}
