package io.loopx.api.internal;

import io.loopx.api.InvalidValueException;
import io.loopx.api.TraceContext;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The optional parts of the worker frames (docs/contract/worker.md#trace-context) that the host,
 * {@code ProviderMain} and the contract checks share: the handshake's {@code features} and the
 * request frame's {@code trace}. Pure.
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public final class WorkerWire {
  /** The handshake key that lists the worker's optional features. */
  public static final String FEATURES_KEY = "features";

  /** The feature of a worker that reads a request frame's {@code trace}. */
  public static final String TRACE_CONTEXT_FEATURE = "trace_context";

  /** The request frame key of the call's trace context. */
  public static final String TRACE_KEY = "trace";

  /** The most features one handshake may list. */
  public static final int MAX_FEATURES = 16;

  /** The environment variable of a one-shot provider's {@code traceparent}. */
  public static final String TRACEPARENT_VARIABLE = "TRACEPARENT";

  /** The environment variable of a one-shot provider's {@code tracestate}. */
  public static final String TRACESTATE_VARIABLE = "TRACESTATE";

  private static final Pattern FEATURE = Pattern.compile("[a-z][a-z0-9_]{0,63}");

  private WorkerWire() {}

  /**
   * Returns the features a handshake's {@code features} value lists: an array of at most {@value
   * #MAX_FEATURES} distinct strings matching {@code [a-z][a-z0-9_]{0,63}}; empty when the value is
   * anything else (a bad handshake).
   */
  public static Optional<Set<String>> features(JsonNode value) {
    if (!value.isArray() || value.size() > MAX_FEATURES) {
      return Optional.empty();
    }
    Set<String> features = new LinkedHashSet<>();
    for (JsonNode f : value) {
      if (!f.isString()
          || !FEATURE.matcher(f.stringValue()).matches()
          || !features.add(f.stringValue())) {
        return Optional.empty();
      }
    }
    return Optional.of(Set.copyOf(features));
  }

  /**
   * Returns the trace context of a request frame's {@code trace} value, read strictly: an object
   * with exactly {@code traceparent} (a valid one) and optionally {@code tracestate} (a valid,
   * non-empty one).
   *
   * @throws InvalidValueException naming what is wrong
   */
  public static TraceContext trace(@Nullable JsonNode value) {
    if (!(value instanceof ObjectNode o)) {
      throw new InvalidValueException("worker frame trace", String.valueOf(value), "not an object");
    }
    JsonNode parent = o.get("traceparent");
    JsonNode state = o.get("tracestate");
    int expected = 1 + (state == null ? 0 : 1);
    if (o.size() != expected || parent == null || !parent.isString()) {
      throw new InvalidValueException(
          "worker frame trace",
          o.toString(),
          "must be {\"traceparent\":<string>[,\"tracestate\":<string>]}");
    }
    if (state != null && (!state.isString() || state.stringValue().isEmpty())) {
      throw new InvalidValueException(
          "worker frame tracestate", state.toString(), "must be a non-empty string");
    }
    return new TraceContext(parent.stringValue(), state == null ? "" : state.stringValue());
  }

  /** Returns the {@code trace} value of a request frame: {@code tracestate} omitted when empty. */
  public static ObjectNode traceNode(TraceContext trace) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("traceparent", trace.traceparent());
    if (!trace.tracestate().isEmpty()) {
      o.put("tracestate", trace.tracestate());
    }
    return o;
  }
}
