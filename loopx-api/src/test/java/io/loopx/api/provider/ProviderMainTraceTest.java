package io.loopx.api.provider;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.TraceContext;
import io.loopx.api.json.StrictJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link ProviderMain} passes the caller's trace context to {@link
 * ProviderHandler#handle(ObjectNode, Optional)} (docs/contract/run.md#trace-context,
 * docs/contract/worker.md#trace-context): one-shot from the environment, leniently; in a worker
 * from the request frame, strictly.
 */
class ProviderMainTraceTest {
  private static final String TP1 = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  private static final String TP2 = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";

  /** Records the context of each call and answers with its traceparent. */
  private static final class Tracing implements ProviderHandler {
    final List<Optional<TraceContext>> seen = new ArrayList<>();

    @Override
    public String responseSchemaVersion() {
      return "trace_response_v0";
    }

    @Override
    public ObjectNode handle(ObjectNode request) {
      throw new AssertionError("ProviderMain calls handle(request, trace)");
    }

    @Override
    public ObjectNode handle(ObjectNode request, Optional<TraceContext> trace) {
      seen.add(trace);
      ObjectNode response = request.objectNode();
      response.put("ok", true);
      response.put("traceparent", trace.map(TraceContext::traceparent).orElse("none"));
      return response;
    }
  }

  private record Run(int code, List<String> lines, String stderr) {}

  private static Run run(
      ProviderHandler handler, String[] args, String stdin, Map<String, String> env) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        ProviderMain.execute(
            args, handler, new ByteArrayInputStream(stdin.getBytes(UTF_8)), out, err, env::get);
    String text = out.toString(UTF_8);
    return new Run(
        code, text.isEmpty() ? List.of() : List.of(text.split("\n")), err.toString(UTF_8));
  }

  private static ObjectNode json(String line) {
    return StrictJson.parseObject(line.getBytes(UTF_8));
  }

  @Test
  void oneShotReadsTraceparentAndTracestateFromTheEnvironment() {
    Tracing h = new Tracing();
    Run r = run(h, new String[0], "{}", Map.of("TRACEPARENT", TP1, "TRACESTATE", "k=v"));
    assertThat(r.code()).isEqualTo(ProviderMain.EXIT_OK);
    assertThat(h.seen).containsExactly(Optional.of(new TraceContext(TP1, "k=v")));
    assertThat(json(r.lines().get(0)).get("traceparent").stringValue()).isEqualTo(TP1);
  }

  @Test
  void oneShotWithoutOrWithAnInvalidContextHasNoneAndStillAnswers() {
    for (Map<String, String> env :
        List.of(
            Map.<String, String>of(),
            Map.of("TRACESTATE", "k=v"),
            Map.of("TRACEPARENT", "garbage"),
            Map.of("TRACEPARENT", TP1.toUpperCase(java.util.Locale.ROOT)),
            Map.of("TRACEPARENT", TP1, "TRACESTATE", "x".repeat(513)))) {
      Tracing h = new Tracing();
      Run r = run(h, new String[0], "{}", env);
      assertThat(r.code()).as(env.toString()).isEqualTo(ProviderMain.EXIT_OK);
      assertThat(h.seen).as(env.toString()).containsExactly(Optional.empty());
    }
  }

  @Test
  void theDefaultMethodCallsTheOneArgumentHandle() {
    ProviderHandler old =
        new ProviderHandler() {
          @Override
          public String responseSchemaVersion() {
            return "old_v0";
          }

          @Override
          public ObjectNode handle(ObjectNode request) {
            ObjectNode response = request.objectNode();
            response.put("ok", true);
            return response;
          }
        };
    Run r = run(old, new String[0], "{}", Map.of("TRACEPARENT", TP1));
    assertThat(r.code()).isEqualTo(ProviderMain.EXIT_OK);
    assertThat(r.lines()).containsExactly("{\"ok\":true}");
  }

  @Test
  void aWorkerAnnouncesTraceContextAndGivesEachRequestItsOwn() {
    Tracing h = new Tracing();
    Run r =
        run(
            h,
            new String[] {ProviderMain.WORKER_FLAG},
            "{\"id\":\"1\",\"request\":{},\"trace\":{\"traceparent\":\""
                + TP1
                + "\"}}\n"
                + "{\"id\":\"2\",\"request\":{}}\n"
                + "{\"id\":\"3\",\"request\":{},\"trace\":{\"traceparent\":\""
                + TP2
                + "\",\"tracestate\":\"a=b,c=d\"}}\n",
            Map.of(ProviderMain.WORKER_PROTOCOL_VARIABLE, "trace_v0", "TRACEPARENT", TP2));
    assertThat(r.code()).isEqualTo(ProviderMain.EXIT_OK);
    assertThat(json(r.lines().get(0)).get("features").toString()).isEqualTo("[\"trace_context\"]");
    // The environment's context is never a worker request's: only the frame's counts.
    assertThat(h.seen)
        .containsExactly(
            Optional.of(TraceContext.of(TP1)),
            Optional.empty(),
            Optional.of(new TraceContext(TP2, "a=b,c=d")));
    assertThat(json(r.lines().get(2)).get("response").get("traceparent").stringValue())
        .isEqualTo("none");
  }

  @Test
  void aMalformedTraceIsAMalformedFrameThatEndsTheWorkerWithExitOne() {
    for (String trace :
        List.of(
            "\"" + TP1 + "\"",
            "{}",
            "null",
            "{\"traceparent\":\"nope\"}",
            "{\"traceparent\":1}",
            "{\"traceparent\":\"" + TP1 + "\",\"tracestate\":\"\"}",
            "{\"traceparent\":\"" + TP1 + "\",\"tracestate\":7}",
            "{\"traceparent\":\"" + TP1 + "\",\"tracestate\":\"\\u0001\"}",
            "{\"traceparent\":\"" + TP1 + "\",\"baggage\":\"x\"}")) {
      Tracing h = new Tracing();
      Run r =
          run(
              h,
              new String[] {ProviderMain.WORKER_FLAG},
              "{\"id\":\"1\",\"request\":{},\"trace\":" + trace + "}\n",
              Map.of(ProviderMain.WORKER_PROTOCOL_VARIABLE, "trace_v0"));
      assertThat(r.code()).as(trace).isEqualTo(ProviderMain.EXIT_FAILED);
      assertThat(r.lines()).as(trace).hasSize(1); // the handshake only
      assertThat(h.seen).as(trace).isEmpty();
      assertThat(r.stderr()).as(trace).contains("trace");
    }
  }

  @Test
  void aFrameWithAnotherThirdKeyIsStillMalformed() {
    Run r =
        run(
            new Tracing(),
            new String[] {ProviderMain.WORKER_FLAG},
            "{\"id\":\"1\",\"request\":{},\"extra\":{}}\n",
            Map.of(ProviderMain.WORKER_PROTOCOL_VARIABLE, "trace_v0"));
    assertThat(r.code()).isEqualTo(ProviderMain.EXIT_FAILED);
    assertThat(r.lines()).hasSize(1);
  }
}
