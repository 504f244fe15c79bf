package io.loopx.samples.textstats;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Schema;
import io.loopx.api.json.StrictJson;
import io.loopx.api.provider.ProviderMain;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/** The provider behind {@link ProviderMain}, in process: requests, refusals, doctor. */
class TextStatsProviderTest {
  private static Schema responseSchema;

  @BeforeAll
  static void loadResponseSchema() {
    responseSchema = JsonSchemas.load(JsonSchemas.RESPONSE);
  }

  private record Run(int code, byte[] stdout, String stderr) {
    /** Asserts stdout is one compact object and a newline, valid against the response schema. */
    ObjectNode response() {
      assertThat(stdout).isNotEmpty();
      assertThat(stdout[stdout.length - 1]).isEqualTo((byte) '\n');
      byte[] body = Arrays.copyOf(stdout, stdout.length - 1);
      ObjectNode response = StrictJson.parseObject(body);
      assertThat(StrictJson.toCompactBytes(response)).isEqualTo(body);
      assertThat(JsonSchemas.problems(responseSchema, response)).isEmpty();
      return response;
    }

    /** Asserts a refusal: exit 1, one {@code ok:false} object; returns its error. */
    String refusal() {
      ObjectNode response = response();
      assertThat(code).isEqualTo(1);
      assertThat(response.propertyNames()).containsExactly("ok", "schema_version", "error");
      assertThat(response.get("ok").asBoolean()).isFalse();
      assertThat(response.get("schema_version").asString())
          .isEqualTo(TextStatsProvider.RESPONSE_SCHEMA_VERSION);
      return response.get("error").asString();
    }
  }

  private static Run run(InputStream stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ProviderMain.execute(args, new TextStatsProvider(), stdin, out, err);
    return new Run(code, out.toByteArray(), err.toString(UTF_8));
  }

  private static Run run(String stdin) {
    return run(new ByteArrayInputStream(stdin.getBytes(UTF_8)));
  }

  private static String request(String text) {
    return "{\"schema_version\":\"loopx_text_stats_request_v0\",\"text\":" + text + "}";
  }

  // ---------------------------------------------------------------------------------- success

  @Test
  void countsAndAnswersWithTheExactResponse() {
    Run run = run(request("\"Hello, 世界 \ud83c\udf0d\\r\\nsecond\u00a0line\""));

    assertThat(run.code()).isZero();
    assertThat(new String(run.stdout(), UTF_8))
        .isEqualTo(
            "{\"ok\":true,\"schema_version\":\"loopx_text_stats_response_v0\","
                + "\"extension_id\":\"loopx-text-stats\","
                + "\"request_schema_version\":\"loopx_text_stats_request_v0\","
                + "\"result\":{\"characters\":24,\"words\":5,\"lines\":2}}\n");
    assertThat(run.response()).isNotNull();
    assertThat(run.stderr()).isEmpty();
  }

  @Test
  void keyOrderAndWhitespaceOfTheRequestDoNotMatter() {
    Run run =
        run("\n { \"text\" : \"\" ,\n \"schema_version\" : \"loopx_text_stats_request_v0\" }\n");

    assertThat(run.code()).isZero();
    assertThat(run.response().get("result").toString())
        .isEqualTo("{\"characters\":0,\"words\":0,\"lines\":0}");
  }

  @Test
  void theExampleRequestGetsTheExampleResponse() throws IOException {
    Run run = run(new ByteArrayInputStream(Files.readAllBytes(Path.of("examples/request.json"))));

    assertThat(run.code()).isZero();
    assertThat(run.response())
        .isEqualTo(StrictJson.parse(Files.readAllBytes(Path.of("examples/response.json"))));
  }

  // -------------------------------------------------------------------------------- refusals

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '^',
      value = {
        "missing text          | {\"schema_version\":\"loopx_text_stats_request_v0\"}"
            + "                                   | $: required property 'text' not found",
        "missing version       | {\"text\":\"a\"}"
            + "                                   | $: required property 'schema_version' not found",
        "other version         | {\"schema_version\":\"loopx_text_stats_request_v1\",\"text\":\"a\"}"
            + "                                   | $.schema_version: ",
        "version not a string  | {\"schema_version\":0,\"text\":\"a\"}"
            + "                                   | $.schema_version: ",
        "extra key             | {\"schema_version\":\"loopx_text_stats_request_v0\",\"text\":\"a\",\"lang\":\"en\"}"
            + "                                   | 'lang'",
        "text a number         | {\"schema_version\":\"loopx_text_stats_request_v0\",\"text\":42}"
            + "                                   | $.text: integer found, string expected",
        "text null             | {\"schema_version\":\"loopx_text_stats_request_v0\",\"text\":null}"
            + "                                   | $.text: null found, string expected",
        "text an array         | {\"schema_version\":\"loopx_text_stats_request_v0\",\"text\":[\"a\"]}"
            + "                                   | $.text: array found, string expected",
        "empty object          | {}" + "                                   | required property",
      })
  void requestsOfAnotherShapeAreRefusedNamingTheProblem(
      String name, String request, String problem) {
    String error = run(request).refusal();

    assertThat(error).startsWith("request does not match loopx_text_stats_request_v0: ");
    assertThat(error).contains(problem);
  }

  @Test
  void arrayRequestIsRefused() {
    String error = run("[" + request("\"a\"") + "]").refusal();

    assertThat(error).startsWith("request must be a JSON object: ").contains("array");
  }

  @Test
  void emptyStdinIsRefused() {
    String error = run("").refusal();

    assertThat(error).isEqualTo("request must be a readable JSON object: JSON input is empty");
  }

  @Test
  void malformedJsonIsRefused() {
    String error = run("{\"schema_version\":\"loopx_text_stats_request_v0\",\"text\":").refusal();

    assertThat(error).startsWith("request must be a readable JSON object: ");
  }

  @Test
  void everyProblemIsNamed() {
    String error = run("{\"text\":1,\"extra\":true}").refusal();

    assertThat(error)
        .contains("'schema_version'")
        .contains("$.text: integer found, string expected")
        .contains("'extra'");
  }

  // ---------------------------------------------------------------------------------- doctor

  @Test
  void doctorExitsZeroWithoutReadingStdinOrWriting() {
    InputStream unreadable =
        new InputStream() {
          @Override
          public int read() {
            throw new AssertionError("the doctor must not read stdin");
          }
        };

    Run run = run(unreadable, "--doctor");

    assertThat(run.code()).isZero();
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).isEmpty();
  }

  // ------------------------------------------------------------------ the response schema bites

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '^',
      value = {
        "negative count  | {\"ok\":true,\"schema_version\":\"loopx_text_stats_response_v0\","
            + "\"extension_id\":\"loopx-text-stats\",\"request_schema_version\":"
            + "\"loopx_text_stats_request_v0\",\"result\":{\"characters\":-1,\"words\":0,\"lines\":0}}",
        "extra key       | {\"ok\":true,\"schema_version\":\"loopx_text_stats_response_v0\","
            + "\"extension_id\":\"loopx-text-stats\",\"request_schema_version\":"
            + "\"loopx_text_stats_request_v0\",\"result\":{\"characters\":1,\"words\":1,\"lines\":1},"
            + "\"x\":1}",
        "other id        | {\"ok\":true,\"schema_version\":\"loopx_text_stats_response_v0\","
            + "\"extension_id\":\"other\",\"request_schema_version\":"
            + "\"loopx_text_stats_request_v0\",\"result\":{\"characters\":1,\"words\":1,\"lines\":1}}",
        "missing lines   | {\"ok\":true,\"schema_version\":\"loopx_text_stats_response_v0\","
            + "\"extension_id\":\"loopx-text-stats\",\"request_schema_version\":"
            + "\"loopx_text_stats_request_v0\",\"result\":{\"characters\":1,\"words\":1}}",
        "failure ok true | {\"ok\":true,\"schema_version\":\"loopx_text_stats_response_v0\","
            + "\"error\":\"x\"}",
        "empty error     | {\"ok\":false,\"schema_version\":\"loopx_text_stats_response_v0\","
            + "\"error\":\"\"}",
      })
  void responseSchemaRejectsOtherShapes(String name, String response) {
    assertThat(JsonSchemas.problems(responseSchema, StrictJson.parse(response.getBytes(UTF_8))))
        .isNotEmpty();
  }
}
