package io.loopx.api;

import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A W3C Trace Context (https://www.w3.org/TR/trace-context/): the {@code traceparent} of the span a
 * call belongs to and its vendor {@code tracestate}. A host hands the calling thread's context to
 * LoopX ({@code Loopx.Builder.traceContext}); LoopX passes it to the provider, one-shot in the
 * {@code TRACEPARENT} / {@code TRACESTATE} environment variables, to a warm worker in its request
 * frame (docs/contract/run.md#trace-context, docs/contract/worker.md#trace-context).
 *
 * <p>Immutable value; the canonical constructor validates, so every instance is valid: a version
 * {@code 00} {@code traceparent} ({@code 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>},
 * lowercase, ids not all zero) and a {@code tracestate} of at most 512 printable ASCII characters
 * (empty: none).
 *
 * @param traceparent the {@code traceparent} header value
 * @param tracestate the {@code tracestate} header value, empty when there is none
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public record TraceContext(String traceparent, String tracestate) {
  /** The longest {@code tracestate} passed on, in characters. */
  public static final int MAX_TRACESTATE_CHARS = 512;

  private static final int TRACEPARENT_CHARS = 55;

  /** Validates both values; throws {@link InvalidValueException} naming the bad one. */
  public TraceContext {
    Objects.requireNonNull(traceparent, "traceparent");
    Objects.requireNonNull(tracestate, "tracestate");
    if (!validTraceparent(traceparent)) {
      throw new InvalidValueException(
          "traceparent",
          traceparent,
          "must be 00-<32 lowercase hex>-<16 lowercase hex>-<2 lowercase hex>, ids not all zero");
    }
    if (!validTracestate(tracestate)) {
      throw new InvalidValueException(
          "tracestate",
          tracestate,
          "must be at most " + MAX_TRACESTATE_CHARS + " printable ASCII characters");
    }
  }

  /** Returns the context of {@code traceparent} without a {@code tracestate}. */
  public static TraceContext of(String traceparent) {
    return new TraceContext(traceparent, "");
  }

  /**
   * Returns the context of the given header values when {@code traceparent} is present and both are
   * valid, else empty (a receiver's lenient read, e.g. of the environment). A null or empty {@code
   * tracestate} is none.
   */
  public static Optional<TraceContext> parse(
      @Nullable String traceparent, @Nullable String tracestate) {
    String state = tracestate == null ? "" : tracestate;
    if (traceparent == null || !validTraceparent(traceparent) || !validTracestate(state)) {
      return Optional.empty();
    }
    return Optional.of(new TraceContext(traceparent, state));
  }

  /** Returns the 32-hex-character trace id. */
  public String traceId() {
    return traceparent.substring(3, 35);
  }

  /** Returns the 16-hex-character id of the parent span (the caller's span). */
  public String parentId() {
    return traceparent.substring(36, 52);
  }

  /** Returns whether the caller sampled the trace (flag {@code 01}). */
  public boolean sampled() {
    return (Integer.parseInt(traceparent.substring(53, 55), 16) & 1) == 1;
  }

  private static boolean validTraceparent(String s) {
    if (s.length() != TRACEPARENT_CHARS
        || !s.startsWith("00-")
        || s.charAt(35) != '-'
        || s.charAt(52) != '-') {
      return false;
    }
    return lowerHex(s, 3, 35) && lowerHex(s, 36, 52) && lowerHex(s, 53, 55);
  }

  private static boolean lowerHex(String s, int from, int to) {
    boolean nonZero = to - from == 2; // the flags may be 00
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
      nonZero |= c != '0';
    }
    return nonZero;
  }

  private static boolean validTracestate(String s) {
    if (s.length() > MAX_TRACESTATE_CHARS) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return false;
      }
    }
    return true;
  }
}
