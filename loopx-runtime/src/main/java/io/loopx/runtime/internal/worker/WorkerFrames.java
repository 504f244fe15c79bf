package io.loopx.runtime.internal.worker;

import io.loopx.api.ProtocolId;
import io.loopx.api.TraceContext;
import io.loopx.api.internal.WorkerWire;
import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The line frames of docs/contract/worker.md: one UTF-8 JSON object per line each way. Pure. */
final class WorkerFrames {
  /** The handshake's {@code schema_version}. */
  static final String HANDSHAKE_SCHEMA = "loopx_worker_handshake_v0";

  /**
   * The longest line either way: the 1,000,000-byte request or response cap plus the envelope bound
   * (16,384 bytes of scope and 1,024 bytes for the rest of the envelope and the frame).
   */
  static final int LINE_LIMIT = 1_000_000 + 16_384 + 1_024;

  private static final byte[] HEAD = "{\"id\":\"".getBytes(StandardCharsets.UTF_8);
  private static final byte[] MIDDLE = "\",\"request\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] TRACE = ",\"trace\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] NO_TRACE = new byte[0];
  private static final Pattern LEADING_ID =
      Pattern.compile("^\\{\\s*\"id\"\\s*:\\s*\"([0-9]{1,19})\"");

  private WorkerFrames() {}

  /**
   * Returns the frame {@code {"id":<id>,"request":<request>}} and its line feed, with {@code
   * "trace":{"traceparent":…[,"tracestate":…]}} after the request when {@code trace} is present
   * (docs/contract/worker.md#trace-context): the request's bytes are unchanged.
   */
  static byte[] request(String id, byte[] request, Optional<TraceContext> trace) {
    byte[] idBytes = id.getBytes(StandardCharsets.US_ASCII);
    byte[] traced =
        trace.isEmpty() ? NO_TRACE : StrictJson.toCompactBytes(WorkerWire.traceNode(trace.get()));
    int tail = traced.length == 0 ? 0 : TRACE.length + traced.length;
    byte[] frame =
        new byte[HEAD.length + idBytes.length + MIDDLE.length + request.length + tail + 2];
    int at = 0;
    System.arraycopy(HEAD, 0, frame, at, HEAD.length);
    at += HEAD.length;
    System.arraycopy(idBytes, 0, frame, at, idBytes.length);
    at += idBytes.length;
    System.arraycopy(MIDDLE, 0, frame, at, MIDDLE.length);
    at += MIDDLE.length;
    System.arraycopy(request, 0, frame, at, request.length);
    at += request.length;
    if (tail > 0) {
      System.arraycopy(TRACE, 0, frame, at, TRACE.length);
      at += TRACE.length;
      System.arraycopy(traced, 0, frame, at, traced.length);
      at += traced.length;
    }
    frame[at++] = '}';
    frame[at] = '\n';
    return frame;
  }

  /**
   * Returns the features the handshake {@code line} announces when it is exactly {@code
   * {"schema_version":"loopx_worker_handshake_v0","protocol":<protocol>,"pid":<int>}} with an
   * optional {@code "features":[…]} (docs/contract/worker.md#start: at most 16 distinct names of
   * {@code [a-z][a-z0-9_]{0,63}}; unknown ones are kept, and ignored by the caller); empty when it
   * is not a valid handshake.
   */
  static Optional<Set<String>> handshake(byte[] line, int length, ProtocolId protocol) {
    Optional<ObjectNode> object = object(line, length);
    if (object.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode o = object.get();
    JsonNode schema = o.get("schema_version");
    JsonNode proto = o.get("protocol");
    JsonNode pid = o.get("pid");
    JsonNode features = o.get(WorkerWire.FEATURES_KEY);
    boolean valid =
        o.size() == (features == null ? 3 : 4)
            && schema != null
            && schema.isString()
            && schema.stringValue().equals(HANDSHAKE_SCHEMA)
            && proto != null
            && proto.isString()
            && proto.stringValue().equals(protocol.value())
            && pid != null
            && pid.isIntegralNumber();
    if (!valid) {
      return Optional.empty();
    }
    return features == null ? Optional.of(Set.of()) : WorkerWire.features(features);
  }

  /**
   * A response frame: exactly {@code id} (a string) and {@code response} (an object).
   *
   * @param id the request id it answers
   * @param response the response object
   */
  record Response(String id, ObjectNode response) {}

  /** Reads a response frame; empty when the line is not one. */
  static Optional<Response> response(byte[] line, int length) {
    Optional<ObjectNode> object = object(line, length);
    if (object.isEmpty() || object.get().size() != 2) {
      return Optional.empty();
    }
    JsonNode id = object.get().get("id");
    JsonNode response = object.get().get("response");
    if (id == null || !id.isString() || !(response instanceof ObjectNode body)) {
      return Optional.empty();
    }
    return Optional.of(new Response(id.stringValue(), body));
  }

  /** The id at the very start of an over-long line, when it is written first. */
  static Optional<String> leadingId(byte[] prefix, int length) {
    String text = new String(prefix, 0, Math.min(length, 64), StandardCharsets.UTF_8);
    Matcher m = LEADING_ID.matcher(text);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  private static Optional<ObjectNode> object(byte[] line, int length) {
    byte[] bytes = length == line.length ? line : java.util.Arrays.copyOf(line, length);
    try {
      return Optional.of(StrictJson.parseObject(bytes));
    } catch (InvalidJsonException e) {
      return Optional.empty();
    }
  }
}
