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
import java.util.OptionalLong;
import org.apiguardian.api.API;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Receipt of a governed capability dispatch ({@code loopx_capability_dispatch_v0},
 * docs/contract/dispatch.md). In a preview the status is {@code ready} and nothing ran; executed,
 * the outcome is classified as for a managed run (an in-process built-in has no exit code).
 *
 * @param capabilityId the capability
 * @param protocol the protocol
 * @param action the action bound into the envelope
 * @param providerId the provider that was resolved (an extension id or a built-in provider id)
 * @param revision the provider's revision bound into the envelope
 * @param dryRun whether this was a preview
 * @param outcome what the provider did (for a preview: nothing ran, status {@code ready})
 * @param containment how the provider's processes were contained ({@code containment}); empty for a
 *     preview, an in-process built-in, and a host launcher that does not say
 * @param memoryLimitBytes the memory limit that applied to the provider's processes in bytes
 *     ({@code memory_limit_bytes}, docs/contract/run.md#memory-limit); empty for a preview, an
 *     in-process built-in, and when no limit applied
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
    Optional<Containment> containment,
    @API(status = API.Status.EXPERIMENTAL, since = "0.3") OptionalLong memoryLimitBytes)
    implements Receipt {
  /** The receipt schema version. */
  public static final String SCHEMA_VERSION = "loopx_capability_dispatch_v0";

  /** Rejects nulls. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.3")
  public DispatchReceipt {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(providerId, "providerId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(containment, "containment");
    Objects.requireNonNull(memoryLimitBytes, "memoryLimitBytes");
  }

  /** Creates a receipt without a {@link #memoryLimitBytes()}. */
  public DispatchReceipt(
      CapabilityId capabilityId,
      ProtocolId protocol,
      ActionToken action,
      ProviderId providerId,
      Revision revision,
      boolean dryRun,
      ProviderOutcome outcome,
      Optional<Containment> containment) {
    this(
        capabilityId,
        protocol,
        action,
        providerId,
        revision,
        dryRun,
        outcome,
        containment,
        OptionalLong.empty());
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
    if (memoryLimitBytes.isPresent()) {
      o.put("memory_limit_bytes", memoryLimitBytes.getAsLong());
    } else {
      o.putNull("memory_limit_bytes");
    }
    return o;
  }
}
