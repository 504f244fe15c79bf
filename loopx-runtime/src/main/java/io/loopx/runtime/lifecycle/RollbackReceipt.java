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
 * @param targetIdentityProven whether the runtime identity found now at the target's saved location
 *     was proven for the target revision before this command ({@code target_identity_proven}):
 *     false tells the operator that the code that would run (or now runs) is not the code proven
 *     for that version, for example after a new version was copied over the old one's directory
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
    DoctorReceipt doctor,
    boolean targetIdentityProven)
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
    o.put("target_identity_proven", targetIdentityProven);
    return o;
  }
}
