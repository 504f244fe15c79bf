package io.loopx.runtime.internal.worker;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ProtocolId;
import io.loopx.api.TraceContext;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The optional parts of the frames (docs/contract/worker.md#trace-context): the handshake's {@code
 * features} and the request frame's {@code trace}, which never changes the request's bytes.
 */
class WorkerFramesTest {
  private static final ProtocolId PROTOCOL = ProtocolId.of("demo_recall_v0");
  private static final String TP = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  private static final String HEAD =
      "{\"schema_version\":\"loopx_worker_handshake_v0\",\"protocol\":\"demo_recall_v0\",\"pid\":7";

  private static Optional<Set<String>> handshake(String line) {
    byte[] bytes = line.getBytes(UTF_8);
    byte[] padded = Arrays.copyOf(bytes, bytes.length + 5); // only [0, length) counts
    return WorkerFrames.handshake(padded, bytes.length, PROTOCOL);
  }

  @Test
  void todaysHandshakeHasNoFeatures() {
    assertThat(handshake(HEAD + "}")).contains(Set.of());
  }

  @Test
  void featuresAreReadAndUnknownOnesKept() {
    assertThat(handshake(HEAD + ",\"features\":[]}")).contains(Set.of());
    assertThat(handshake(HEAD + ",\"features\":[\"trace_context\"]}"))
        .contains(Set.of("trace_context"));
    assertThat(handshake(HEAD + ",\"features\":[\"future_thing\",\"trace_context\"]}"))
        .contains(Set.of("future_thing", "trace_context"));
    StringBuilder sixteen = new StringBuilder();
    for (int i = 0; i < 16; i++) {
      sixteen.append(i == 0 ? "" : ",").append("\"f").append(i).append('"');
    }
    assertThat(handshake(HEAD + ",\"features\":[" + sixteen + "]}").orElseThrow()).hasSize(16);
    assertThat(handshake(HEAD + ",\"features\":[\"a" + "b".repeat(63) + "\"]}")).isPresent();
  }

  @Test
  void aMalformedFeaturesValueIsABadHandshake() {
    StringBuilder seventeen = new StringBuilder();
    for (int i = 0; i < 17; i++) {
      seventeen.append(i == 0 ? "" : ",").append("\"f").append(i).append('"');
    }
    for (String features :
        List.of(
            "\"trace_context\"",
            "null",
            "{}",
            "[1]",
            "[null]",
            "[\"\"]",
            "[\"Trace_context\"]",
            "[\"trace-context\"]",
            "[\"1trace\"]",
            "[\"_trace\"]",
            "[\"a" + "b".repeat(64) + "\"]",
            "[\"trace_context\",\"trace_context\"]",
            "[" + seventeen + "]")) {
      assertThat(handshake(HEAD + ",\"features\":" + features + "}")).as(features).isEmpty();
    }
    assertThat(handshake(HEAD + ",\"ready\":true}")).isEmpty(); // another 4th key
    assertThat(handshake(HEAD + ",\"features\":[],\"ready\":true}")).isEmpty();
  }

  @Test
  void theTraceFollowsTheUnchangedRequestBytes() {
    byte[] request = "{\"b\":1,\"a\":\"\\u00e9\"}".getBytes(UTF_8);
    String plain = new String(WorkerFrames.request("42", request, Optional.empty()), UTF_8);
    assertThat(plain).isEqualTo("{\"id\":\"42\",\"request\":{\"b\":1,\"a\":\"\\u00e9\"}}\n");
    String traced =
        new String(WorkerFrames.request("42", request, Optional.of(TraceContext.of(TP))), UTF_8);
    assertThat(traced)
        .isEqualTo(
            "{\"id\":\"42\",\"request\":{\"b\":1,\"a\":\"\\u00e9\"},\"trace\":{\"traceparent\":\""
                + TP
                + "\"}}\n");
    String withState =
        new String(
            WorkerFrames.request(
                "42", request, Optional.of(new TraceContext(TP, "k=v,q=\"x\\y\""))),
            UTF_8);
    assertThat(withState)
        .startsWith(plain.substring(0, plain.length() - 2))
        .endsWith(
            ",\"trace\":{\"traceparent\":\""
                + TP
                + "\",\"tracestate\":\"k=v,q=\\\"x\\\\y\\\"\"}}\n");
  }
}
