package io.loopx.runtime.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.Receipt;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * Receipt of {@code install} and {@code upgrade} ({@code loopx_extension_operation_v0}).
 *
 * @param operation {@code install} or {@code upgrade}
 * @param dryRun whether this was a preview
 * @param changed whether state was written
 * @param extensionId the extension
 * @param version the candidate's version
 * @param revision the candidate's revision
 * @param previousRevision the previously active revision (empty on install)
 * @param enabled {@code true} when executed, empty in a preview
 * @param doctor the candidate's doctor packet
 * @param rollbackAvailable whether a rollback revision is (or would be) recorded
 * @param targetIdentityProven whether the candidate's runtime identity found now was proven for the
 *     candidate revision before this command ({@code target_identity_proven}): always false on
 *     install; on upgrade true only when the revision is in the history with that identity proven
 * @param warnings problems that do not stop the operation, one sentence each ({@code warnings};
 *     additive within v0): an extension with {@code [[implements]]} whose runtime requires none of
 *     its permissions can never be dispatched
 */
@API(status = API.Status.STABLE, since = "0.1")
public record ActivationReceipt(
    String operation,
    boolean dryRun,
    boolean changed,
    ExtensionId extensionId,
    String version,
    Revision revision,
    Optional<Revision> previousRevision,
    Optional<Boolean> enabled,
    DoctorReceipt doctor,
    boolean rollbackAvailable,
    boolean targetIdentityProven,
    List<String> warnings)
    implements Receipt {

  /** Rejects nulls. */
  public ActivationReceipt {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(previousRevision, "previousRevision");
    Objects.requireNonNull(enabled, "enabled");
    Objects.requireNonNull(doctor, "doctor");
    warnings = List.copyOf(warnings);
  }

  /** The receipt without warnings (the constructor of 0.1). */
  public ActivationReceipt(
      String operation,
      boolean dryRun,
      boolean changed,
      ExtensionId extensionId,
      String version,
      Revision revision,
      Optional<Revision> previousRevision,
      Optional<Boolean> enabled,
      DoctorReceipt doctor,
      boolean rollbackAvailable,
      boolean targetIdentityProven) {
    this(
        operation,
        dryRun,
        changed,
        extensionId,
        version,
        revision,
        previousRevision,
        enabled,
        doctor,
        rollbackAvailable,
        targetIdentityProven,
        List.of());
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
    o.put("extension_id", extensionId.value());
    o.put("version", version);
    o.put("revision", revision.value());
    Receipts.putOptional(o, "previous_revision", previousRevision);
    Receipts.putOptional(o, "enabled", enabled);
    o.set("doctor", doctor.toJson());
    o.put("rollback_available", rollbackAvailable);
    o.put("target_identity_proven", targetIdentityProven);
    tools.jackson.databind.node.ArrayNode list = o.putArray("warnings");
    warnings.forEach(list::add);
    return o;
  }
}
