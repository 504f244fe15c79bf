/**
 * Micrometer for LoopX (docs/observing.md#micrometer): {@link io.loopx.micrometer.LoopxMicrometer},
 * a call observer that makes an {@code Observation} of every dispatch, run, doctor probe and
 * lifecycle command (timers, and spans through Micrometer Tracing), counts refusals and binds
 * worker-pool gauges; its context type and its replaceable default convention.
 */
@org.jspecify.annotations.NullMarked
// Micrometer's jars are automatic modules; its types are in this module's API, so a host reads
// them.
@SuppressWarnings("requires-transitive-automatic")
module io.loopx.micrometer {
  requires static transitive org.jspecify;
  requires static transitive org.apiguardian.api;
  requires transitive io.loopx.runtime;
  requires transitive micrometer.observation;
  requires transitive micrometer.commons;
  requires transitive micrometer.core;

  exports io.loopx.micrometer;
}
