package io.loopx.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import io.loopx.api.provider.ProviderMain;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The worker frame protocol as {@link ProviderContractTest#workerKeepsTheFrameProtocol} checks it
 * (docs/contract/worker.md): reads and asserts the handshake and the response frames of a {@link
 * WorkerSession}, and writes request frames with fresh ids.
 */
final class WorkerFrameChecks {
  private static final Pattern FEATURE = Pattern.compile("[a-z][a-z0-9_]{0,63}");

  private WorkerFrameChecks() {}

  static void checkHandshake(WorkerSession w, String protocol) {
    WorkerSession.Line line =
        w.nextLine("the handshake")
            .orElseThrow(
                () -> new AssertionError("the worker ended without a handshake" + w.describe()));
    ObjectNode handshake = parseLine(line, "the handshake", w);
    List<String> keys = new ArrayList<>();
    handshake.propertyNames().forEach(keys::add);
    List<String> expected = new ArrayList<>(List.of("schema_version", "protocol", "pid"));
    if (handshake.has("features")) {
      expected.add("features"); // optional (docs/contract/worker.md#start)
    }
    assertThat(keys)
        .as("the keys of the handshake %s", line.text())
        .containsExactlyInAnyOrderElementsOf(expected);
    if (handshake.has("features")) {
      JsonNode features = handshake.get("features");
      Set<String> names = new HashSet<>();
      boolean valid = features.isArray() && features.size() <= 16;
      for (JsonNode f : features) {
        valid &=
            f.isString()
                && FEATURE.matcher(f.stringValue()).matches()
                && names.add(f.stringValue());
      }
      assertThat(valid)
          .as(
              "the handshake's features is an array of at most 16 distinct names of"
                  + " [a-z][a-z0-9_]{0,63}: %s",
              line.text())
          .isTrue();
    }
    assertThat(
            handshake.get("schema_version").isString()
                && handshake
                    .get("schema_version")
                    .stringValue()
                    .equals(ProviderMain.WORKER_HANDSHAKE_SCHEMA))
        .as(
            "the handshake's schema_version is %s: %s",
            ProviderMain.WORKER_HANDSHAKE_SCHEMA, line.text())
        .isTrue();
    assertThat(
            handshake.get("protocol").isString()
                && handshake.get("protocol").stringValue().equals(protocol))
        .as("the handshake's protocol is the runtime's, %s: %s", protocol, line.text())
        .isTrue();
    assertThat(handshake.get("pid").isIntegralNumber())
        .as("the handshake's pid is an integer: %s", line.text())
        .isTrue();
  }

  /** Sends one request frame and returns the response of the one frame that must answer it. */
  static ObjectNode exchange(WorkerSession w, String id, ObjectNode request) {
    w.send(frame(id, request));
    ObjectNode f = responseFrame(w, "the response to " + id);
    assertThat(f.get("id").stringValue())
        .as("the id of the response to the only request in flight")
        .isEqualTo(id);
    return (ObjectNode) f.get("response");
  }

  /** Reads a line that must be a response frame: exactly a string id and an object response. */
  static ObjectNode responseFrame(WorkerSession w, String waitingFor) {
    WorkerSession.Line line =
        w.nextLine(waitingFor)
            .orElseThrow(
                () ->
                    new AssertionError(
                        "the worker's stdout ended while waiting for "
                            + waitingFor
                            + w.describe()));
    ObjectNode f = parseLine(line, waitingFor, w);
    List<String> keys = new ArrayList<>();
    f.propertyNames().forEach(keys::add);
    boolean frame =
        keys.size() == 2
            && f.get("id") != null
            && f.get("id").isString()
            && f.get("response") instanceof ObjectNode;
    assertThat(frame)
        .as(
            "%s is exactly {\"id\":<string>,\"response\":<object>}: %s",
            waitingFor, WorkerSession.preview(line.text()))
        .isTrue();
    return f;
  }

  private static ObjectNode parseLine(WorkerSession.Line line, String what, WorkerSession w) {
    if (line.tooLong()) {
      throw new AssertionError(
          what + ": a stdout line over the " + ProviderMain.MAX_FRAME_BYTES + "-byte frame cap");
    }
    try {
      return StrictJson.parseObject(line.bytes());
    } catch (InvalidJsonException e) {
      throw new AssertionError(
          what
              + " is not one JSON object ("
              + e.getMessage()
              + "): "
              + WorkerSession.preview(line.text())
              + w.describe(),
          e);
    }
  }

  static byte[] frame(String id, ObjectNode request) {
    ObjectNode f = JsonNodeFactory.instance.objectNode();
    f.put("id", id);
    f.set("request", request);
    return StrictJson.toCompactBytes(f);
  }

  /** A fresh id: a counter and random hex, with a character JSON must escape every fifth time. */
  static String frameId(int n, Random random) {
    return (n % 5 == 4 ? "q\"" : "r") + n + "-" + Long.toHexString(random.nextLong());
  }
}
