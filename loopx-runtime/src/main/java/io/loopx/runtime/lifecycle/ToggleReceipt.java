package io.loopx.runtime.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.Receipt;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * Receipt of {@code enable} and {@code disable} ({@code loopx_extension_operation_v0}). Only an
 * enable receipt carries a doctor packet.
 *
 * @param operation {@code enable} or {@code disable}
 * @param dryRun whether this was a preview
 * @param changed whether the enabled bit was flipped
 * @param wouldChange whether the command flips (or would flip) the enabled bit
 * @param extensionId the extension
 * @param enabled the enabled bit after the command (in a preview: the current value)
 * @param activeRevision the active revision
 * @param doctor the doctor packet of an enable
 */
@API(status = API.Status.STABLE, since = "0.1")
public record ToggleReceipt(
    String operation,
    boolean dryRun,
    boolean changed,
    boolean wouldChange,
    ExtensionId extensionId,
    boolean enabled,
    Revision activeRevision,
    Optional<DoctorReceipt> doctor)
    implements Receipt {

  /** Rejects nulls. */
  public ToggleReceipt {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(activeRevision, "activeRevision");
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
    ObjectNode o = Receipts.operationHead(ok(), operation, dryRun, changed);
    o.put("would_change", wouldChange);
    o.put("extension_id", extensionId.value());
    o.put("enabled", enabled);
    o.put("active_revision", activeRevision.value());
    doctor.ifPresent(d -> o.set("doctor", d.toJson()));
    return o;
  }
}
