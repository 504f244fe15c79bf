package io.loopx.runtime.events;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import io.loopx.runtime.Mode;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunStatus;
import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A standalone run or a capability dispatch ended, with a receipt or an error, previews included.
 * Exactly one of {@link #status()} and {@link #error()} is present. Implemented by LoopX only;
 * hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public non-sealed interface CallCompleted extends LoopxEvent {

  /** Returns {@code run} or {@code dispatch}. */
  String operation();

  /** Returns the extension of a run; empty for a dispatch (see {@link #providerId()}). */
  Optional<ExtensionId> extensionId();

  /** Returns the capability of a dispatch; empty for a run. */
  Optional<CapabilityId> capabilityId();

  /** Returns the protocol of a dispatch; empty for a run. */
  Optional<ProtocolId> protocol();

  /** Returns the action of a dispatch; empty for a run. */
  Optional<ActionToken> action();

  /** Returns the resolved provider of a dispatch; empty for a run or before one was resolved. */
  Optional<ProviderId> providerId();

  /** Returns the revision that ran or was bound; empty when the call failed before a receipt. */
  Optional<Revision> revision();

  /** Returns whether it was a preview or an execute. */
  Mode mode();

  /** Returns the time from the call to its end. */
  Duration duration();

  /** Returns the receipt's status ({@code ready} for a preview); empty when the call threw. */
  Optional<RunStatus> status();

  /** Returns the receipt's {@code failure_kind}, if any. */
  Optional<RunFailure> failure();

  /** Returns the kind of the error the call threw; empty when it returned a receipt. */
  Optional<ErrorKind> error();
}
