package io.loopx.opentelemetry;

import io.loopx.api.TraceContext;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.events.CallObserver;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * LoopX in a host's OpenTelemetry trace (docs/observing.md#opentelemetry): a span per dispatch,
 * run, doctor probe and lifecycle command, made current on the calling thread while the call runs,
 * and the W3C trace context LoopX passes to providers ({@code TRACEPARENT} / {@code TRACESTATE}, or
 * the worker request frame).
 *
 * <pre>{@code
 * Loopx loopx = LoopxTelemetry.create(openTelemetry).applyTo(Loopx.builder())
 *     .runtimeRoot(root)
 *     .build();
 * }</pre>
 *
 * <p>Spans come from the tracer of instrumentation scope {@value #INSTRUMENTATION_SCOPE}, version
 * {@link Loopx#VERSION}. Immutable and thread-safe; one instance may serve several {@code Loopx}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public final class LoopxTelemetry {

  /** The instrumentation scope name of LoopX's spans. */
  public static final String INSTRUMENTATION_SCOPE = "io.loopx";

  private final CallObserver observer;
  private final Supplier<Optional<TraceContext>> traceContext;

  private LoopxTelemetry(Tracer tracer) {
    this.observer = new SpanObserver(tracer);
    this.traceContext = new W3cTraceContextSource();
  }

  /**
   * Returns the telemetry of {@code openTelemetry}: its tracer provider makes the spans ({@link
   * OpenTelemetry#noop()} makes none, and then no trace context is passed on).
   */
  public static LoopxTelemetry create(OpenTelemetry openTelemetry) {
    Objects.requireNonNull(openTelemetry, "openTelemetry");
    Tracer tracer =
        openTelemetry
            .getTracerProvider()
            .tracerBuilder(INSTRUMENTATION_SCOPE)
            .setInstrumentationVersion(Loopx.VERSION)
            .build();
    return new LoopxTelemetry(tracer);
  }

  /**
   * Returns the call observer ({@code Loopx.Builder.observer}) that starts a span per call, a child
   * of the span current on the calling thread, makes it current while the call runs and ends it.
   */
  public CallObserver observer() {
    return observer;
  }

  /**
   * Returns the trace-context source ({@code Loopx.Builder.traceContext}): the W3C {@code
   * traceparent} and {@code tracestate} of {@link io.opentelemetry.context.Context#current()}, none
   * when its span context is not valid. Always W3C Trace Context, whatever propagators the host
   * configured: that is what providers read.
   */
  public Supplier<Optional<TraceContext>> traceContext() {
    return traceContext;
  }

  /** Adds {@link #observer()} and {@link #traceContext()} to {@code builder} and returns it. */
  public Loopx.Builder applyTo(Loopx.Builder builder) {
    Objects.requireNonNull(builder, "builder");
    return builder.observer(observer).traceContext(traceContext);
  }
}
