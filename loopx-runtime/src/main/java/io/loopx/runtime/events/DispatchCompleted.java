package io.loopx.runtime.events;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A capability dispatch ended (receipt or error), previews included.
 *
 * @param capabilityId the capability
 * @param protocol the protocol
 * @param action the action
 * @param providerId the resolved provider (empty when the call failed before resolving one)
 * @param revision the provider revision bound into the envelope (empty likewise)
 * @param dryRun whether it was a preview
 * @param duration from the call to its end
 * @param outcome how it ended
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record DispatchCompleted(
    CapabilityId capabilityId,
    ProtocolId protocol,
    ActionToken action,
    Optional<ProviderId> providerId,
    Optional<Revision> revision,
    boolean dryRun,
    Duration duration,
    CallOutcome outcome)
    implements LoopxEvent {

  /** Rejects nulls. */
  public DispatchCompleted {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(providerId, "providerId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(outcome, "outcome");
  }
}
