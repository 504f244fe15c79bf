package io.loopx.runtime.dispatch;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.process.Containment;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunStatus;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Receipt of a governed capability dispatch ({@code loopx_capability_dispatch_v0}). In a preview
 * the status is {@code ready} and nothing ran; executed, the status, failure kind, exit code and
 * provider result are classified as for a managed run (an in-process built-in has no exit code).
 *
 * @param capabilityId the capability
 * @param protocol the protocol
 * @param action the action bound into the envelope
 * @param providerId the provider that was resolved (an extension id or a built-in provider id)
 * @param revision the provider's revision bound into the envelope
 * @param dryRun whether this was a preview
 * @param outcome what the provider did (for a preview: nothing ran, status {@code ready})
 * @param containment how the provider's processes were contained ({@code containment}); empty
 *     ({@code null}) for a preview, an in-process built-in, and a host {@link
 *     io.loopx.runtime.process.ProcessLauncher} that does not say
 */
@API(status = API.Status.STABLE, since = "0.1")
public record DispatchReceipt(
    CapabilityId capabilityId,
    ProtocolId protocol,
    ActionToken action,
    ProviderId providerId,
    Revision revision,
    boolean dryRun,
    ProviderOutcome outcome,
    Optional<Containment> containment)
    implements Receipt {
  /** The receipt schema version. */
  public static final String SCHEMA_VERSION = "loopx_capability_dispatch_v0";

  /** Rejects nulls. */
  public DispatchReceipt {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(providerId, "providerId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(containment, "containment");
  }

  @Override
  public boolean ok() {
    return outcome.status() == RunStatus.SUCCEEDED || outcome.status() == RunStatus.READY;
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
    o.put("dry_run", dryRun);
    o.put("executed", !dryRun);
    outcome.writeTo(o);
    o.put("containment", containment.map(Containment::wireName).orElse(null));
    return o;
  }
}
