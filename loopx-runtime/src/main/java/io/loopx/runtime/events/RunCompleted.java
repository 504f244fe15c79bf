package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A standalone run ended (receipt or error), previews included.
 *
 * @param extensionId the extension
 * @param revision the revision that ran (empty when the call failed before a receipt)
 * @param dryRun whether it was a preview
 * @param duration from the call to its end
 * @param outcome how it ended
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record RunCompleted(
    ExtensionId extensionId,
    Optional<Revision> revision,
    boolean dryRun,
    Duration duration,
    CallOutcome outcome)
    implements LoopxEvent {

  /** Rejects nulls. */
  public RunCompleted {
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(outcome, "outcome");
  }
}
