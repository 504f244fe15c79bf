package io.loopx.runtime.events;

import org.apiguardian.api.API;

/**
 * Brackets each dispatch, run, doctor probe and lifecycle command of a {@code Loopx} ({@code
 * Loopx.Builder.observer}), so that metrics and tracing adapters (the {@code loopx-micrometer} and
 * {@code loopx-opentelemetry} modules) can time a call and make their span current while it runs;
 * the names and tags are in docs/observing.md#call-observers.
 *
 * <p>{@link #begin} is called on the calling thread before the call does anything; the returned
 * scope's {@link Scope#end} is called exactly once, on the same thread, when the call returns or
 * throws. Several observers begin in the order added and end in the reverse order, so scopes nest.
 * An observer that throws never changes the call: its first failure is logged once at {@code
 * WARNING} and the call goes on (its scope, if begin threw, is not ended).
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
@FunctionalInterface
public interface CallObserver {

  /** Begins observing {@code call} (its tags as known at the start) and returns its scope. */
  Scope begin(ObservedCall call);

  /** The observation of one call, ended once on the thread that began it. */
  @FunctionalInterface
  interface Scope {
    /** Ends the observation; {@code call} is the same call with everything known at its end. */
    void end(ObservedCall call);
  }
}
