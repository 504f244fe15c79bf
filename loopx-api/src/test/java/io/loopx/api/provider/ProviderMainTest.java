package io.loopx.api.provider;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.loopx.api.json.StrictJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class ProviderMainTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String SCHEMA = "demo_response_v0";

  /** A handler whose behaviour is a function; records whether handle and doctor ran. */
  private static final class Handler implements ProviderHandler {
    private final Function<ObjectNode, ObjectNode> body;
    final List<ObjectNode> requests = new ArrayList<>();
    int doctorCalls;
    RuntimeException doctorFailure;

    Handler(Function<ObjectNode, ObjectNode> body) {
      this.body = body;
    }

    @Override
    public String responseSchemaVersion() {
      return SCHEMA;
    }

    @Override
    public ObjectNode handle(ObjectNode request) {
      requests.add(request);
      return body.apply(request);
    }

    @Override
    public void doctor() {
      doctorCalls++;
      if (doctorFailure != null) {
        throw doctorFailure;
      }
    }
  }

  /** The outcome of one {@link ProviderMain#execute} call. */
  private record Run(int code, byte[] stdout, String stderr) {
    String out() {
      return new String(stdout, UTF_8);
    }

    /** Asserts stdout is exactly one compact JSON object and a newline, and returns it. */
    ObjectNode onlyObject() {
      assertThat(stdout).isNotEmpty();
      assertThat(stdout[stdout.length - 1]).isEqualTo((byte) '\n');
      byte[] body = Arrays.copyOf(stdout, stdout.length - 1);
      assertThat(body).doesNotContain((byte) '\n');
      ObjectNode object = StrictJson.parseObject(body);
      assertThat(StrictJson.toCompactBytes(object)).isEqualTo(body);
      return object;
    }

    /** Asserts stdout is one {@code ok:false} error object and returns its message. */
    String error() {
      ObjectNode object = onlyObject();
      assertThat(code).isEqualTo(ProviderMain.EXIT_FAILED);
      assertThat(object.propertyNames()).containsExactly("ok", "schema_version", "error");
      assertThat(object.get("ok").asBoolean()).isFalse();
      assertThat(object.get("schema_version").asString()).isEqualTo(SCHEMA);
      return object.get("error").asString();
    }
  }

  private static Run execute(ProviderHandler handler, InputStream stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ProviderMain.execute(args, handler, stdin, out, err);
    return new Run(code, out.toByteArray(), err.toString(UTF_8));
  }

  private static Run execute(ProviderHandler handler, byte[] stdin, String... args) {
    return execute(handler, new ByteArrayInputStream(stdin), args);
  }

  private static Run execute(ProviderHandler handler, String stdin, String... args) {
    return execute(handler, stdin.getBytes(UTF_8), args);
  }

  private static ObjectNode okEcho(ObjectNode request) {
    ObjectNode response = NODES.objectNode();
    response.put("ok", true);
    response.put("schema_version", SCHEMA);
    response.set("echo", request);
    return response;
  }

  /** An input stream that fails the test if anyone reads it. */
  private static InputStream unreadable() {
    return new InputStream() {
      @Override
      public int read() {
        throw new AssertionError("stdin must not be read");
      }
    };
  }

  // ------------------------------------------------------------------------------------ success

  @Test
  void okResponseIsOneCompactUtf8LineAndExitsZero() {
    Handler handler = new Handler(ProviderMainTest::okEcho);
    Run run =
        execute(handler, "  {\"text\" : \"h\u00e9 \u4f60\u597d \ud83c\udf0d\", \"n\": 4.50}\n");

    assertThat(run.code()).isEqualTo(ProviderMain.EXIT_OK);
    assertThat(run.out())
        .isEqualTo(
            "{\"ok\":true,\"schema_version\":\"demo_response_v0\","
                + "\"echo\":{\"text\":\"h\u00e9 \u4f60\u597d \ud83c\udf0d\",\"n\":4.50}}\n");
    assertThat(run.stdout()).contains(0xF0, 0x9F, 0x8C, 0x8D); // the emoji as raw UTF-8 bytes
    assertThat(run.stderr()).isEmpty();
    assertThat(handler.requests).hasSize(1);
    assertThat(handler.doctorCalls).isZero();
  }

  @Test
  void requestOfExactlyTheLimitIsAccepted() {
    String object = "{\"a\":1}";
    byte[] input =
        (object + " ".repeat(ProviderMain.MAX_REQUEST_BYTES - object.length())).getBytes(UTF_8);
    assertThat(input).hasSize(ProviderMain.MAX_REQUEST_BYTES);

    Run run = execute(new Handler(ProviderMainTest::okEcho), input);

    assertThat(run.code()).isZero();
    assertThat(run.onlyObject().get("echo").get("a").asInt()).isEqualTo(1);
  }

  @Test
  void responseWithOkFalseIsWrittenAsItIsAndExitsOne() {
    Run run =
        execute(
            new Handler(
                r -> {
                  ObjectNode response = NODES.objectNode();
                  response.put("ok", false);
                  response.put("schema_version", SCHEMA);
                  response.put("reason", "nothing to do");
                  return response;
                }),
            "{}");

    assertThat(run.code()).isEqualTo(ProviderMain.EXIT_FAILED);
    assertThat(run.out())
        .isEqualTo(
            "{\"ok\":false,\"schema_version\":\"demo_response_v0\",\"reason\":\"nothing to do\"}\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"{}", "{\"ok\":\"true\"}", "{\"ok\":1}", "{\"ok\":null}"})
  void onlyABooleanTrueOkExitsZero(String response) {
    Run run = execute(new Handler(r -> StrictJson.parseObject(response.getBytes(UTF_8))), "{}");

    assertThat(run.code()).isEqualTo(ProviderMain.EXIT_FAILED);
    assertThat(run.out()).isEqualTo(response + "\n");
  }

  // ------------------------------------------------------------------------------------- doctor

  @Test
  void doctorCallsTheDoctorOnlyAndWritesNothing() {
    Handler handler = new Handler(ProviderMainTest::okEcho);
    Run run = execute(handler, unreadable(), "--verbose", ProviderMain.DOCTOR_FLAG);

    assertThat(run.code()).isEqualTo(ProviderMain.EXIT_OK);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).isEmpty();
    assertThat(handler.doctorCalls).isEqualTo(1);
    assertThat(handler.requests).isEmpty();
  }

  @Test
  void defaultDoctorChecksNothingAndSucceeds() {
    ProviderHandler minimal =
        new ProviderHandler() {
          @Override
          public String responseSchemaVersion() {
            return SCHEMA;
          }

          @Override
          public ObjectNode handle(ObjectNode request) {
            throw new AssertionError("handle must not run");
          }
        };

    Run run = execute(minimal, unreadable(), ProviderMain.DOCTOR_FLAG);

    assertThat(run.code()).isZero();
    assertThat(run.stdout()).isEmpty();
  }

  @Test
  void failingDoctorExitsOneWithTheReasonOnStderrOnly() {
    Handler handler = new Handler(ProviderMainTest::okEcho);
    handler.doctorFailure = new IllegalStateException("schema resource missing");

    Run run = execute(handler, unreadable(), ProviderMain.DOCTOR_FLAG);

    assertThat(run.code()).isEqualTo(ProviderMain.EXIT_FAILED);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr())
        .startsWith(
            "doctor failed: provider failed: java.lang.IllegalStateException: schema resource"
                + " missing\n");
  }

  @Test
  void argumentsOtherThanDoctorAreIgnored() {
    Run run = execute(new Handler(ProviderMainTest::okEcho), "{}", "--doctorx", "-d", "doctor");

    assertThat(run.code()).isZero();
    assertThat(run.onlyObject().get("ok").asBoolean()).isTrue();
  }

  // ------------------------------------------------------------------------------- bad requests

  @Test
  void emptyStdinIsRefused() {
    Handler handler = new Handler(ProviderMainTest::okEcho);
    Run run = execute(handler, "");

    assertThat(run.error())
        .isEqualTo("request must be a readable JSON object: JSON input is empty");
    assertThat(handler.requests).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        " \n ",
        "{",
        "{\"a\":1} {}",
        "{'a':1}",
        "{\"a\":1,\"a\":2}",
        "{\"a\":12345678901234567890}",
        "{\"a\":\"\\ud800\"}"
      })
  void unreadableRequestsAreRefusedBeforeTheHandlerRuns(String input) {
    Handler handler = new Handler(ProviderMainTest::okEcho);
    Run run = execute(handler, input);

    assertThat(run.error()).startsWith("request must be a readable JSON object: ");
    assertThat(handler.requests).isEmpty();
    assertThat(run.stderr()).doesNotContain("\tat "); // no stack trace for a refused request
  }

  @ParameterizedTest
  @ValueSource(strings = {"[]", "[{\"text\":\"a\"}]", "\"text\"", "42", "null", "true"})
  void nonObjectRequestsAreRefused(String input) {
    Handler handler = new Handler(ProviderMainTest::okEcho);
    Run run = execute(handler, input);

    assertThat(run.error()).startsWith("request must be a JSON object: ");
    assertThat(handler.requests).isEmpty();
  }

  @Test
  void invalidUtf8IsRefused() {
    Run run =
        execute(new Handler(ProviderMainTest::okEcho), new byte[] {'{', '"', (byte) 0xC3, '"'});

    assertThat(run.error()).contains("not valid UTF-8");
  }

  @Test
  void requestOverTheLimitIsRefusedWithoutReadingFurther() {
    int[] served = {0};
    InputStream endless =
        new InputStream() {
          @Override
          public int read() {
            served[0]++;
            return ' ';
          }
        };

    Run run = execute(new Handler(ProviderMainTest::okEcho), endless);

    assertThat(run.error()).isEqualTo("request exceeds the 1000000-byte limit");
    assertThat(served[0]).isEqualTo(ProviderMain.MAX_REQUEST_BYTES + 1);
  }

  @Test
  void unreadableStdinIsRefused() {
    InputStream broken =
        new InputStream() {
          @Override
          public int read() throws IOException {
            throw new IOException("pipe broke");
          }
        };

    Run run = execute(new Handler(ProviderMainTest::okEcho), broken);

    assertThat(run.error()).isEqualTo("request could not be read from stdin: pipe broke");
  }

  // --------------------------------------------------------------------------- failing handlers

  @Test
  void providerExceptionBecomesTheErrorWithoutStackTrace() {
    Run run =
        execute(
            new Handler(
                r -> {
                  throw new ProviderException("request field `text` is missing");
                }),
            "{}");

    assertThat(run.error()).isEqualTo("request field `text` is missing");
    assertThat(run.stderr()).isEqualTo("request field `text` is missing\n");
  }

  @Test
  void unexpectedExceptionNamesItsTypeAndStackTraceGoesToStderrOnly() {
    Run run =
        execute(
            new Handler(
                r -> {
                  throw new IllegalArgumentException("bad thing");
                }),
            "{}");

    assertThat(run.error())
        .isEqualTo("provider failed: java.lang.IllegalArgumentException: bad thing");
    assertThat(run.out()).doesNotContain("\tat ");
    assertThat(run.stderr())
        .startsWith("provider failed: java.lang.IllegalArgumentException: bad thing\n")
        .contains("java.lang.IllegalArgumentException: bad thing\n\tat ");
  }

  @Test
  void linkageErrorsAreReportedToo() {
    Run run =
        execute(
            new Handler(
                r -> {
                  throw new NoClassDefFoundError("com/example/Missing");
                }),
            "{}");

    assertThat(run.error())
        .isEqualTo("provider failed: java.lang.NoClassDefFoundError: com/example/Missing");
  }

  @Test
  void nullResponseIsAnError() {
    Run run = execute(new Handler(r -> null), "{}");

    assertThat(run.error()).contains("returned no response");
  }

  @Test
  void unwritableResponseIsAnError() {
    Run run =
        execute(
            new Handler(
                r -> {
                  ObjectNode response = NODES.objectNode();
                  response.put("ok", true);
                  response.put("value", Double.NaN);
                  return response;
                }),
            "{}");

    assertThat(run.error()).startsWith("the provider response cannot be written as JSON: ");
  }

  @Test
  void errorMessagesAreCutAndLoneSurrogatesReplaced() {
    String message = "\ud800 " + "x".repeat(10_000);
    Run run =
        execute(
            new Handler(
                r -> {
                  throw new ProviderException(message);
                }),
            "{}");

    String error = run.error();
    assertThat(error).hasSize(ProviderMain.MAX_ERROR_CHARS);
    assertThat(error).startsWith("\ufffd x");
  }

  @Test
  void handlerThatCannotNameItsSchemaGetsTheFallback() {
    ProviderHandler broken =
        new ProviderHandler() {
          @Override
          public String responseSchemaVersion() {
            throw new UnsupportedOperationException("no schema");
          }

          @Override
          public ObjectNode handle(ObjectNode request) {
            throw new ProviderException("refused");
          }
        };

    Run run = execute(broken, "{}");

    ObjectNode object = run.onlyObject();
    assertThat(object.get("schema_version").asString())
        .isEqualTo(ProviderMain.FALLBACK_SCHEMA_VERSION);
    assertThat(object.get("error").asString()).isEqualTo("refused");
  }

  @Test
  void failedStdoutWriteExitsOne() {
    OutputStream closed =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException("stdout closed");
          }
        };
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code =
        ProviderMain.execute(
            new String[0],
            new Handler(ProviderMainTest::okEcho),
            new ByteArrayInputStream("{}".getBytes(UTF_8)),
            closed,
            err);

    assertThat(code).isEqualTo(ProviderMain.EXIT_FAILED);
    assertThat(err.toString(UTF_8)).contains("stdout closed");
  }

  // --------------------------------------------------------------------------------- properties

  @Test
  void anyInputYieldsExactlyOneObjectAndAMatchingExitCode() {
    qt().withExamples(300)
        .forAll(lists().of(integers().between(0, 255)).ofSizeBetween(0, 40))
        .checkAssert(
            values -> {
              byte[] input = new byte[values.size()];
              for (int i = 0; i < input.length; i++) {
                input[i] = values.get(i).byteValue();
              }
              Run run = execute(new Handler(ProviderMainTest::okEcho), input);
              ObjectNode object = run.onlyObject();
              assertThat(run.code()).isEqualTo(object.get("ok").asBoolean() ? 0 : 1);
            });
  }

  @Test
  void anyStringTravelsThroughUnchanged() {
    qt().withExamples(300)
        .forAll(lists().of(integers().between(0, 0x10FFFF - 0x800)).ofSizeBetween(0, 30))
        .checkAssert(
            codePoints -> {
              StringBuilder text = new StringBuilder();
              for (int cp : codePoints) {
                text.appendCodePoint(cp < 0xD800 ? cp : cp + 0x800); // skip the surrogate range
              }
              ObjectNode request = NODES.objectNode();
              request.put("text", text.toString());
              Run run =
                  execute(
                      new Handler(ProviderMainTest::okEcho), StrictJson.toCompactBytes(request));
              JsonNode echo = run.onlyObject().get("echo");
              assertThat(run.code()).isZero();
              assertThat(echo.get("text").asString()).isEqualTo(text.toString());
            });
  }
}
