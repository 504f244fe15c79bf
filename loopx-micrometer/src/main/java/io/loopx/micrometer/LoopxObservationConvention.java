package io.loopx.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import org.apiguardian.api.API;

/**
 * The {@link ObservationConvention} of LoopX's observations: names and key values of a {@link
 * LoopxObservationContext}. {@link DefaultLoopxObservationConvention} is the default; a host
 * replaces it with {@link LoopxMicrometer#withConvention} or by registering a {@code
 * GlobalObservationConvention<LoopxObservationContext>} on its {@code ObservationRegistry}
 * (Micrometer's usual order: the one given, then a matching global one, then the default).
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public interface LoopxObservationConvention extends ObservationConvention<LoopxObservationContext> {

  /** Returns whether {@code context} is a {@link LoopxObservationContext}. */
  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof LoopxObservationContext;
  }
}
