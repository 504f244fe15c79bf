package io.loopx.micrometer;

import io.loopx.runtime.events.ObservedCall;
import io.micrometer.observation.Observation;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The {@link Observation.Context} of one LoopX call (a dispatch, run, doctor probe or lifecycle
 * command): the call as LoopX reports it, at its start and, once it ended, at its end. Its name is
 * the call's {@linkplain ObservedCall#name() name} ({@code loopx.dispatch}, ...), unless a
 * convention names it otherwise. Conventions and handlers read it; {@link LoopxMicrometer} creates
 * it.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public class LoopxObservationContext extends Observation.Context {

  private volatile ObservedCall call;

  /** Creates the context of {@code call}, as it began. */
  public LoopxObservationContext(ObservedCall call) {
    this.call = Objects.requireNonNull(call, "call");
    setName(call.name());
  }

  /**
   * Returns the call: as it began while it runs, with everything known at its end once it ended
   * ({@link ObservedCall#ended()}).
   */
  public ObservedCall call() {
    return call;
  }

  /** Replaces the call by its ended view (before the observation stops). */
  void ended(ObservedCall ended) {
    this.call = Objects.requireNonNull(ended, "call");
  }
}
