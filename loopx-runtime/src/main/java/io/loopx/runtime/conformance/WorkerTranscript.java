package io.loopx.runtime.conformance;

import io.loopx.api.internal.WorkerWire;
import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stdout of a worker that was sent {@code count} request frames with ids {@code verify-1} ..
 * {@code verify-<count>} and then stdin end-of-file (package-private), judged against
 * docs/contract/worker.md: the handshake first, then exactly one response frame per request, in any
 * order, and nothing else.
 */
final class WorkerTranscript {
  private static final Set<String> HANDSHAKE_KEYS = Set.of("schema_version", "protocol", "pid");
  private static final Set<String> FEATURED_HANDSHAKE_KEYS =
      Set.of("schema_version", "protocol", "pid", WorkerWire.FEATURES_KEY);
  private static final Set<String> RESPONSE_KEYS = Set.of("id", "response");

  private final List<byte[]> lines;
  private final String protocol;
  private final int count;

  private WorkerTranscript(List<byte[]> lines, String protocol, int count) {
    this.lines = lines;
    this.protocol = protocol;
    this.count = count;
  }

  static WorkerTranscript of(byte[] stdout, String protocol, int count) {
    List<byte[]> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < stdout.length; i++) {
      if (stdout[i] == '\n') {
        lines.add(Arrays.copyOfRange(stdout, start, i));
        start = i + 1;
      }
    }
    if (start < stdout.length) {
      lines.add(Arrays.copyOfRange(stdout, start, stdout.length));
    }
    return new WorkerTranscript(lines, protocol, count);
  }

  /** Why the first line is not the handshake of {@code protocol}, or empty. */
  Optional<String> handshakeProblem() {
    if (lines.isEmpty()) {
      return Optional.of("the worker wrote nothing on stdout");
    }
    Optional<ObjectNode> first = object(lines.get(0));
    if (first.isEmpty()
        || !(keys(first.get()).equals(HANDSHAKE_KEYS)
            || keys(first.get()).equals(FEATURED_HANDSHAKE_KEYS))) {
      return Optional.of(
          "the first line is not {schema_version, protocol, pid[, features]}: "
              + Answers.preview(lines.get(0)));
    }
    ObjectNode h = first.get();
    JsonNode features = h.get(WorkerWire.FEATURES_KEY);
    if (features != null && WorkerWire.features(features).isEmpty()) {
      return Optional.of(
          "the handshake's features is not an array of at most "
              + WorkerWire.MAX_FEATURES
              + " distinct names of [a-z][a-z0-9_]{0,63}: "
              + features);
    }
    if (!h.get("schema_version").isString()
        || !h.get("schema_version").asString().equals("loopx_worker_handshake_v0")) {
      return Optional.of("the handshake's schema_version is not `loopx_worker_handshake_v0`");
    }
    if (!h.get("protocol").isString() || !h.get("protocol").asString().equals(protocol)) {
      return Optional.of(
          "the handshake's protocol is not `" + protocol + "`: " + h.get("protocol"));
    }
    if (!h.get("pid").isIntegralNumber()) {
      return Optional.of("the handshake's pid is not an integer: " + h.get("pid"));
    }
    return Optional.empty();
  }

  /** Why the lines after the handshake are not one response frame per request, or empty. */
  Optional<String> responsesProblem() {
    Map<String, Integer> answers = new LinkedHashMap<>();
    for (int i = 1; i <= count; i++) {
      answers.put("verify-" + i, 0);
    }
    for (int n = 1; n < lines.size(); n++) {
      Optional<ObjectNode> frame = object(lines.get(n));
      if (frame.isEmpty()
          || !keys(frame.get()).equals(RESPONSE_KEYS)
          || !frame.get().get("id").isString()
          || !frame.get().get("response").isObject()) {
        return Optional.of(
            "line " + (n + 1) + " is not a response frame: " + Answers.preview(lines.get(n)));
      }
      String id = frame.get().get("id").asString();
      Integer seen = answers.get(id);
      if (seen == null) {
        return Optional.of("line " + (n + 1) + " answers an id that was never sent: `" + id + "`");
      }
      answers.put(id, seen + 1);
    }
    List<String> wrong = new ArrayList<>();
    answers.forEach(
        (id, seen) -> {
          if (seen != 1) {
            wrong.add(id + " answered " + seen + " times");
          }
        });
    return wrong.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", wrong));
  }

  /**
   * Why the request frame {@code id} was not refused, or empty: every response frame to it after
   * the first line (whatever that is: the handshake has its own check) must say {@code "ok":
   * false}, and there must be one.
   */
  Optional<String> refusalProblem(String id) {
    int answers = 0;
    for (int n = 1; n < lines.size(); n++) {
      Optional<ObjectNode> frame = object(lines.get(n));
      if (frame.isEmpty()
          || !frame.get().path("id").isString()
          || !frame.get().get("id").asString().equals(id)) {
        continue;
      }
      answers++;
      JsonNode response = frame.get().get("response");
      JsonNode ok = response == null ? null : response.get("ok");
      if (ok == null || !ok.isBoolean() || ok.booleanValue()) {
        return Optional.of("the answer's `ok` is not false: " + Answers.preview(lines.get(n)));
      }
    }
    return answers == 0 ? Optional.of("no response frame with id `" + id + "`") : Optional.empty();
  }

  private static Optional<ObjectNode> object(byte[] line) {
    try {
      return Optional.of(StrictJson.parseObject(line));
    } catch (InvalidJsonException e) {
      return Optional.empty();
    }
  }

  private static Set<String> keys(ObjectNode o) {
    Set<String> keys = new HashSet<>();
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      keys.add(e.getKey());
    }
    return keys;
  }
}
