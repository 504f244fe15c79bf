package io.loopx.api.provider;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.json.StrictJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** {@link ProviderMain#serveWorker}: the provider side of docs/contract/worker.md. */
class ProviderMainWorkerTest {
  private static final ProviderHandler ECHO =
      new ProviderHandler() {
        @Override
        public String responseSchemaVersion() {
          return "echo_response_v0";
        }

        @Override
        public ObjectNode handle(ObjectNode request) {
          if (request.has("fail")) {
            throw new ProviderException("refused: fail was set");
          }
          ObjectNode response = request.objectNode();
          response.put("ok", true);
          response.set("echo", request);
          return response;
        }
      };

  private record Served(int code, List<String> lines, String stderr) {}

  private static Served serve(String stdin) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        ProviderMain.serveWorker(
            ECHO, "echo_v0", new ByteArrayInputStream(stdin.getBytes(UTF_8)), out, err);
    String text = out.toString(UTF_8);
    return new Served(
        code, text.isEmpty() ? List.of() : List.of(text.split("\n", -1)), err.toString(UTF_8));
  }

  @Test
  void handshakeThenOneResponseFramePerRequestThenExitZeroAtEndOfInput() {
    Served s =
        serve(
            "{\"id\":\"1\",\"request\":{\"a\":1}}\n"
                + "{\"id\":\"2\",\"request\":{\"fail\":true}}\n"
                + "{\"id\":\"3\",\"request\":{\"b\":\"\\n\"}}\n");
    assertThat(s.code()).isEqualTo(ProviderMain.EXIT_OK);
    assertThat(s.lines()).hasSize(5).last().isEqualTo("");
    ObjectNode handshake = StrictJson.parseObject(s.lines().get(0).getBytes(UTF_8));
    assertThat(handshake.propertyNames())
        .containsExactly("schema_version", "protocol", "pid", "features");
    assertThat(handshake.get("features").toString()).isEqualTo("[\"trace_context\"]");
    assertThat(handshake.get("schema_version").stringValue())
        .isEqualTo(ProviderMain.WORKER_HANDSHAKE_SCHEMA);
    assertThat(handshake.get("protocol").stringValue()).isEqualTo("echo_v0");
    assertThat(handshake.get("pid").longValue()).isEqualTo(ProcessHandle.current().pid());
    ObjectNode first = StrictJson.parseObject(s.lines().get(1).getBytes(UTF_8));
    assertThat(first.get("id").stringValue()).isEqualTo("1");
    assertThat(first.get("response").get("echo").get("a").intValue()).isEqualTo(1);
    ObjectNode second = StrictJson.parseObject(s.lines().get(2).getBytes(UTF_8));
    assertThat(second.get("id").stringValue()).isEqualTo("2");
    assertThat(second.get("response").get("ok").booleanValue()).isFalse();
    assertThat(second.get("response").get("error").stringValue())
        .isEqualTo("refused: fail was set");
    ObjectNode third = StrictJson.parseObject(s.lines().get(3).getBytes(UTF_8));
    assertThat(third.get("response").get("echo").get("b").stringValue()).isEqualTo("\n");
  }

  @Test
  void aLineThatIsNotARequestFrameEndsTheWorkerWithExitOne() {
    for (String bad :
        List.of(
            "not json\n",
            "{\"id\":1,\"request\":{}}\n",
            "{\"id\":\"1\"}\n",
            "{\"id\":\"1\",\"request\":{}}")) {
      Served s = serve(bad);
      assertThat(s.code()).as(bad).isEqualTo(ProviderMain.EXIT_FAILED);
      assertThat(s.lines().get(0)).contains(ProviderMain.WORKER_HANDSHAKE_SCHEMA);
      assertThat(s.lines()).as(bad).hasSize(2); // the handshake and its line feed only
    }
  }

  @Test
  void anEmptyInputIsAHandshakeAndACleanExit() {
    Served s = serve("");
    assertThat(s.code()).isEqualTo(ProviderMain.EXIT_OK);
    assertThat(s.lines()).hasSize(2);
  }
}
