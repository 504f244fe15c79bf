/**
 * LoopX in the host's OpenTelemetry trace: {@link io.loopx.opentelemetry.LoopxTelemetry} gives a
 * {@code Loopx} a span per dispatch, run, doctor probe and lifecycle command, made current while
 * the call runs, and passes the calling thread's W3C trace context on to providers
 * (docs/observing.md#opentelemetry). Depends on the OpenTelemetry API only; the host brings the SDK
 * or an agent.
 */
@org.jspecify.annotations.NullMarked
module io.loopx.opentelemetry {
  requires static transitive org.jspecify;
  requires static transitive org.apiguardian.api;
  requires transitive io.loopx.runtime;
  requires transitive io.opentelemetry.api;
  requires io.opentelemetry.context;

  exports io.loopx.opentelemetry;
}
