package io.loopx.runtime.internal.dispatch;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.internal.outcome.ProviderOutcomeRecord;
import io.loopx.runtime.internal.outcome.ReceiptFields;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link DispatchReceipt} LoopX builds; its {@link #toJson()} is the wire form.
 *
 * @param capabilityId the capability
 * @param protocol the protocol
 * @param action the action
 * @param providerId the resolved provider
 * @param revision the provider's revision
 * @param mode preview or execute
 * @param outcome what the provider did
 * @param containment how the provider's processes were contained
 * @param memoryLimitBytes the memory limit that applied
 * @param isolation what isolated the provider's processes; empty when the host's policy is off
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public record DispatchReceiptRecord(
    CapabilityId capabilityId,
    ProtocolId protocol,
    ActionToken action,
    ProviderId providerId,
    Revision revision,
    Mode mode,
    ProviderOutcome outcome,
    Optional<Containment> containment,
    OptionalLong memoryLimitBytes,
    Optional<Isolation> isolation)
    implements DispatchReceipt {
  static final String SCHEMA_VERSION = "loopx_capability_dispatch_v0";

  /** Rejects nulls. */
  public DispatchReceiptRecord {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(providerId, "providerId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(containment, "containment");
    Objects.requireNonNull(memoryLimitBytes, "memoryLimitBytes");
    Objects.requireNonNull(isolation, "isolation");
  }

  /** Creates a receipt without an {@link #isolation()}. */
  public DispatchReceiptRecord(
      CapabilityId capabilityId,
      ProtocolId protocol,
      ActionToken action,
      ProviderId providerId,
      Revision revision,
      Mode mode,
      ProviderOutcome outcome,
      Optional<Containment> containment,
      OptionalLong memoryLimitBytes) {
    this(
        capabilityId,
        protocol,
        action,
        providerId,
        revision,
        mode,
        outcome,
        containment,
        memoryLimitBytes,
        Optional.empty());
  }

  @Override
  public boolean ok() {
    return ReceiptFields.ok(outcome);
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
    o.put("capability_id", capabilityId.value());
    o.put("protocol", protocol.value());
    o.put("action", action.value());
    o.put("extension_id", providerId.value());
    o.put("revision", revision.value());
    o.put("dry_run", !mode.executes());
    o.put("executed", mode.executes());
    ProviderOutcomeRecord.writeTo(outcome, o);
    ReceiptFields.writeContainment(o, containment, memoryLimitBytes);
    ReceiptFields.writeIsolation(o, isolation);
    return o;
  }
}
