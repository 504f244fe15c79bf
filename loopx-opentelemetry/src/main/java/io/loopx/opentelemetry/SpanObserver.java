package io.loopx.opentelemetry;

import io.loopx.api.ErrorKind;
import io.loopx.runtime.events.CallObserver;
import io.loopx.runtime.events.ObservedCall;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link SpanKind#INTERNAL} span per observed call, named as the call, current on the calling
 * thread between {@code begin} and {@code end}. Attributes: {@code loopx.<key>} of both tag maps, a
 * value {@code none} left out; a failed call gets status {@code ERROR} and {@code error.type}.
 */
final class SpanObserver implements CallObserver {

  /** The tag value that means "not known" or "not applicable": not recorded on spans. */
  static final String NONE = "none";

  /** The attribute key prefix of the call's tags. */
  static final String PREFIX = "loopx.";

  /** The OpenTelemetry semantic-convention attribute for the class of error of a failed span. */
  static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

  private static final String OUTCOME = "outcome";
  private static final String FAILURE = "failure";

  private final Tracer tracer;
  private final Map<String, AttributeKey<String>> keys = new ConcurrentHashMap<>();

  SpanObserver(Tracer tracer) {
    this.tracer = tracer;
  }

  @Override
  // The context scope outlives begin: the returned CallObserver.Scope closes it, on this thread.
  @SuppressWarnings("MustBeClosedChecker")
  public CallObserver.Scope begin(ObservedCall call) {
    SpanBuilder builder = tracer.spanBuilder(call.name()).setSpanKind(SpanKind.INTERNAL);
    call.lowCardinalityTags().forEach((k, v) -> attribute(builder, k, v));
    call.highCardinalityTags().forEach((k, v) -> attribute(builder, k, v));
    Span span = builder.startSpan();
    io.opentelemetry.context.Scope current = span.makeCurrent();
    return ended -> {
      try {
        ended.lowCardinalityTags().forEach((k, v) -> attribute(span, k, v));
        ended.highCardinalityTags().forEach((k, v) -> attribute(span, k, v));
        if (ended.failed()) {
          String type = errorType(ended);
          span.setAttribute(ERROR_TYPE, type);
          span.setStatus(StatusCode.ERROR, type);
        }
      } finally {
        current.close();
        span.end();
      }
    };
  }

  /**
   * Returns the class of error of a failed call: the kind it threw, else its failure kind, else its
   * outcome (such as a doctor status), else {@code failed}.
   */
  static String errorType(ObservedCall call) {
    return call.error()
        .map(ErrorKind::wireName)
        .orElseGet(
            () -> {
              Map<String, String> tags = call.lowCardinalityTags();
              String failure = tags.getOrDefault(FAILURE, NONE);
              if (!failure.equals(NONE)) {
                return failure;
              }
              String outcome = tags.getOrDefault(OUTCOME, NONE);
              return outcome.equals(NONE) ? "failed" : outcome;
            });
  }

  private void attribute(SpanBuilder builder, String tag, String value) {
    if (!value.equals(NONE)) {
      builder.setAttribute(key(tag), value);
    }
  }

  private void attribute(Span span, String tag, String value) {
    if (!value.equals(NONE)) {
      span.setAttribute(key(tag), value);
    }
  }

  private AttributeKey<String> key(String tag) {
    return keys.computeIfAbsent(tag, t -> AttributeKey.stringKey(PREFIX + t));
  }
}
