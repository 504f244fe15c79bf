package io.loopx.opentelemetry;

import io.loopx.api.TraceContext;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The W3C trace context of {@link Context#current()}: the {@link W3CTraceContextPropagator}'s
 * {@code traceparent} and {@code tracestate}, none when the current span context is not valid. A
 * {@code tracestate} that {@link TraceContext} does not take (longer than {@value
 * TraceContext#MAX_TRACESTATE_CHARS} characters) is dropped, the {@code traceparent} kept.
 */
final class W3cTraceContextSource implements Supplier<Optional<TraceContext>> {

  static final String TRACEPARENT = "traceparent";
  static final String TRACESTATE = "tracestate";

  private static final TextMapSetter<Map<String, String>> SETTER =
      (carrier, key, value) -> {
        if (carrier != null) {
          carrier.put(key, value);
        }
      };

  @Override
  public Optional<TraceContext> get() {
    Context context = Context.current();
    if (!Span.fromContext(context).getSpanContext().isValid()) {
      return Optional.empty();
    }
    Map<String, String> headers = new HashMap<>(4);
    W3CTraceContextPropagator.getInstance().inject(context, headers, SETTER);
    String traceparent = headers.get(TRACEPARENT);
    Optional<TraceContext> full = TraceContext.parse(traceparent, headers.get(TRACESTATE));
    return full.isPresent() ? full : TraceContext.parse(traceparent, null);
  }
}
