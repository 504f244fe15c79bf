package io.loopx.samples.semanticpreference;

import static io.loopx.samples.semanticpreference.Fixtures.ENV;
import static io.loopx.samples.semanticpreference.Fixtures.bare;
import static io.loopx.samples.semanticpreference.Fixtures.bound;
import static io.loopx.samples.semanticpreference.Fixtures.parse;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Schema;
import io.loopx.api.ActionToken;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.envelope.EnvelopeVerifier.Expectation;
import io.loopx.api.json.StrictJson;
import io.loopx.api.provider.ProviderMain;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The provider behind {@link ProviderMain}, in process: requests bound with the runtime's {@code
 * EnvelopeBinder} exactly as the host binds them, the ranking, every refusal, the envelope checks
 * (which must come before any use of the corpus) and the doctor.
 */
class SemanticPreferenceProviderTest {
  private static final PreferenceCorpus CORPUS = PreferenceCorpus.load();
  private static Schema responseSchema;

  /** How often the provider consulted its corpus source. */
  private final AtomicInteger corpusReads = new AtomicInteger();

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

    /** Asserts an answer: exit 0, {@code ok:true}; returns the refs of the items, in order. */
    List<String> refs() {
      ObjectNode response = response();
      assertThat(code).isZero();
      assertThat(response.get("ok").asBoolean()).isTrue();
      assertThat(stderr).isEmpty();
      return response
          .get("items")
          .valueStream()
          .map(i -> i.get("preference_ref").asString())
          .toList();
    }

    /** Asserts a refusal: exit 1, one {@code ok:false} object; returns its error. */
    String refusal() {
      ObjectNode response = response();
      assertThat(code).isEqualTo(1);
      assertThat(response.propertyNames()).containsExactly("ok", "schema_version", "error");
      assertThat(response.get("ok").asBoolean()).isFalse();
      assertThat(response.get("schema_version").asString())
          .isEqualTo(SemanticPreferenceProvider.RESPONSE_SCHEMA_VERSION);
      return response.get("error").asString();
    }
  }

  private SemanticPreferenceProvider provider(Map<String, String> env) {
    return new SemanticPreferenceProvider(
        env,
        () -> {
          corpusReads.incrementAndGet();
          return CORPUS;
        });
  }

  private Run run(Map<String, String> env, InputStream stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = ProviderMain.execute(args, provider(env), stdin, out, err);
    return new Run(code, out.toByteArray(), err.toString(UTF_8));
  }

  private Run run(Map<String, String> env, ObjectNode request) {
    return run(env, new ByteArrayInputStream(StrictJson.toCompactBytes(request)));
  }

  private Run run(ObjectNode request) {
    return run(ENV, request);
  }

  // ----------------------------------------------------------------------------------- ranking

  @Test
  void bestMatchFirstThenTiesByRef() {
    // dark-theme has dark, editor and theme (3); the others share only "editor" (1 each).
    assertThat(run(bound(bare("dark editor theme"))).refs())
        .containsExactly(
            "pref-editor-dark-theme",
            "pref-editor-font-size",
            "pref-editor-tabs-spaces",
            "pref-keyboard-shortcuts");
    assertThat(corpusReads).hasValue(1);
  }

  @Test
  void aLimitSmallerThanTheMatchesKeepsTheBest() {
    // mornings has "morning" and "meetings" (2); no-fridays ("meetings") and travel-morning-flights
    // ("morning") tie at 1 and are ordered by ref.
    assertThat(run(bound(bare("Morning meetings"))).refs())
        .containsExactly(
            "pref-meeting-mornings", "pref-meeting-no-fridays", "pref-travel-morning-flights");
    assertThat(run(bound(bare("Morning meetings", 2))).refs())
        .containsExactly("pref-meeting-mornings", "pref-meeting-no-fridays");
    assertThat(run(bound(bare("Morning meetings", 1))).refs())
        .containsExactly("pref-meeting-mornings");
  }

  @Test
  void aRepeatedQueryWordCountsOnce() {
    // Counted with repetition, "meetings" twice would put mornings and no-fridays (2) before
    // agenda.
    assertThat(run(bound(bare("meetings MEETINGS agenda"))).refs())
        .containsExactly("pref-meeting-agenda", "pref-meeting-mornings", "pref-meeting-no-fridays");
  }

  @Test
  void theDefaultLimitIsFive() {
    // "the" is in eight summaries, all with score 1.
    assertThat(run(bound(bare("the"))).refs())
        .containsExactly(
            "pref-calendar-week-monday",
            "pref-desk-standing",
            "pref-editor-dark-theme",
            "pref-editor-font-size",
            "pref-keyboard-shortcuts");
    assertThat(run(bound(bare("the", 20))).refs())
        .containsExactly(
            "pref-calendar-week-monday",
            "pref-desk-standing",
            "pref-editor-dark-theme",
            "pref-editor-font-size",
            "pref-keyboard-shortcuts",
            "pref-meeting-mornings",
            "pref-name-spelling",
            "pref-tests-before-merge");
  }

  @Test
  void theLimitCapsTheAnswerAtTwenty() {
    // Every reference has the token "pref".
    List<String> refs = run(bound(bare("pref", 20))).refs();

    assertThat(refs).hasSize(20).isSorted();
    assertThat(CORPUS.size()).isGreaterThan(20);
  }

  @Test
  void tokensAreUnicodeAndCaseInsensitive() {
    assertThat(run(bound(bare("JOSÉ"))).refs()).containsExactly("pref-name-spelling");
    assertThat(run(bound(bare("iso-8601 dates"))).refs()).containsExactly("pref-date-format-iso");
    assertThat(run(bound(bare("Jose"))).refs()).isEmpty();
  }

  @Test
  void aQueryWithoutMatchesGetsNoItems() {
    Run run = run(bound(bare("zebra ?! …")));

    assertThat(run.refs()).isEmpty();
    assertThat(new String(run.stdout(), UTF_8))
        .isEqualTo(
            "{\"ok\":true,\"schema_version\":\"semantic_preference_provider_response_v0\","
                + "\"items\":[]}\n");
  }

  @Test
  void theAnswerIsExactlyTheItemsWithTheirSummaries() {
    Run run = run(bound(bare("window seat", 1)));

    assertThat(run.code()).isZero();
    assertThat(new String(run.stdout(), UTF_8))
        .isEqualTo(
            "{\"ok\":true,\"schema_version\":\"semantic_preference_provider_response_v0\","
                + "\"items\":[{\"preference_ref\":\"pref-travel-window-seat\","
                + "\"summary\":\"Prefer a window seat on flights and trains.\"}]}\n");
  }

  @Test
  void theExampleRequestGetsTheExampleResponse() throws IOException {
    ObjectNode request =
        StrictJson.parseObject(Files.readAllBytes(Path.of("examples/request.json")));
    JsonNode expected = StrictJson.parse(Files.readAllBytes(Path.of("examples/response.json")));

    assertThat(run(bound(request)).response()).isEqualTo(expected);
  }

  // ----------------------------------------------------------------------- bare-request shape

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '^',
      value = {
        "limit 0           | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"a\","
            + "\"limit\":0}                                          | $.limit: ",
        "limit 21          | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"a\","
            + "\"limit\":21}                                         | $.limit: ",
        "limit negative    | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"a\","
            + "\"limit\":-3}                                         | $.limit: ",
        "limit fraction    | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"a\","
            + "\"limit\":2.5}                                        | $.limit: ",
        "limit string      | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"a\","
            + "\"limit\":\"5\"}                                      | $.limit: string found",
        "limit null        | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"a\","
            + "\"limit\":null}                                       | $.limit: null found",
        "extra key         | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"a\","
            + "\"user\":\"me\"}                                      | 'user'",
        "missing query     | {\"schema_version\":\"semantic_preference_request_v0\",\"limit\":3}"
            + "                                                      | required property 'query'",
        "missing version   | {\"query\":\"a\"}"
            + "                                                      | required property 'schema_version'",
        "other version     | {\"schema_version\":\"semantic_preference_request_v1\",\"query\":\"a\"}"
            + "                                                      | $.schema_version: ",
        "query number      | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":7}"
            + "                                                      | $.query: integer found, string expected",
        "query array       | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":[\"a\"]}"
            + "                                                      | $.query: array found, string expected",
        "query empty       | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"\"}"
            + "                                                      | $.query: ",
        "query blank       | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":\" \\t\\n \"}"
            + "                                                      | $.query: ",
        "query blank NBSP  | {\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"\\u00a0\\u3000\"}"
            + "                                                      | $.query: ",
        "empty object      | {}                                    | required property",
      })
  void aBoundRequestOfAnotherShapeIsRefusedBeforeTheCorpusIsRead(
      String name, String request, String problem) {
    String error = run(bound(parse(request))).refusal();

    assertThat(error).startsWith("request does not match semantic_preference_request_v0: ");
    assertThat(error).contains(problem);
    assertThat(corpusReads).hasValue(0);
  }

  @Test
  void limitsOneAndTwentyAreAccepted() {
    assertThat(run(bound(bare("pref", 1))).refs()).containsExactly("pref-calendar-week-monday");
    assertThat(run(bound(bare("pref", 20))).refs()).hasSize(20);
  }

  @Test
  void aLimitWrittenWithAZeroFractionIsAnInteger() {
    // JSON Schema 2020-12: an integer is a number with a zero fractional part, however written.
    assertThat(
            run(bound(
                    parse(
                        "{\"schema_version\":\"semantic_preference_request_v0\","
                            + "\"query\":\"Morning meetings\",\"limit\":2.0}")))
                .refs())
        .containsExactly("pref-meeting-mornings", "pref-meeting-no-fridays");
    assertThat(
            run(bound(
                    parse(
                        "{\"schema_version\":\"semantic_preference_request_v0\","
                            + "\"query\":\"Morning meetings\",\"limit\":1e0}")))
                .refs())
        .containsExactly("pref-meeting-mornings");
  }

  @Test
  void everyProblemIsNamed() {
    String error = run(bound(parse("{\"query\":1,\"limit\":0,\"extra\":true}"))).refusal();

    assertThat(error)
        .contains("'schema_version'")
        .contains("$.query: integer found, string expected")
        .contains("$.limit: ")
        .contains("'extra'");
  }

  // ---------------------------------------------------------------------------------- envelope

  private void assertEnvelopeRefusal(Run run, String message) {
    assertThat(run.refusal()).isEqualTo(message);
    assertThat(corpusReads).as("the corpus was not consulted").hasValue(0);
  }

  @Test
  void aRequestWithoutEnvelopeIsRefused() {
    assertEnvelopeRefusal(run(bare("dark theme")), EnvelopeVerifier.SCHEMA_MESSAGE);
  }

  @Test
  void theEnvelopeIsCheckedBeforeTheRequestShape() {
    assertEnvelopeRefusal(
        run(parse("{\"query\":1,\"limit\":99}")), EnvelopeVerifier.SCHEMA_MESSAGE);
  }

  @Test
  void anEnvelopeForAnotherActionIsRefused() {
    ObjectNode request =
        bound(
            bare("dark theme"),
            ActionToken.of("semantic_preference.write"),
            SemanticPreferenceProvider.scope());

    assertEnvelopeRefusal(run(request), "execution envelope action does not match the operation");
  }

  @Test
  void aWiderScopeIsRefused() {
    ObjectNode wider = SemanticPreferenceProvider.scope().put("include_private", true);

    assertEnvelopeRefusal(
        run(bound(bare("dark theme"), SemanticPreferenceProvider.ACTION, wider)),
        "execution envelope scope does not match the operation");
  }

  @Test
  void anotherOperationInTheScopeIsRefused() {
    ObjectNode other = SemanticPreferenceProvider.scope().put("operation", "forget");

    assertEnvelopeRefusal(
        run(bound(bare("dark theme"), SemanticPreferenceProvider.ACTION, other)),
        "execution envelope scope does not match the operation");
  }

  @Test
  void anEnvelopeForAnotherRevisionIsRefused() {
    Map<String, String> env = new HashMap<>(ENV);
    env.put(Expectation.REVISION_VARIABLE, "0123456789abcdef");
    assertThat(env.get(Expectation.REVISION_VARIABLE)).isNotEqualTo(Fixtures.REVISION.value());

    assertEnvelopeRefusal(
        run(env, bound(bare("dark theme"))),
        "execution envelope extension does not match the operation");
  }

  @Test
  void anEnvelopeForAnotherExtensionIsRefused() {
    Map<String, String> env = new HashMap<>(ENV);
    env.put(Expectation.ID_VARIABLE, "semantic-preference-other");

    assertEnvelopeRefusal(
        run(env, bound(bare("dark theme"))),
        "execution envelope extension does not match the operation");
  }

  @Test
  void aQueryChangedAfterBindingIsRefused() {
    ObjectNode request = bound(bare("dark theme"));
    request.put("query", "window seat");

    assertEnvelopeRefusal(
        run(request), "execution envelope request_digest does not match the operation");
  }

  @Test
  void aLimitAddedAfterBindingIsRefused() {
    ObjectNode request = bound(bare("dark theme"));
    request.put("limit", 20);

    assertEnvelopeRefusal(
        run(request), "execution envelope request_digest does not match the operation");
  }

  @Test
  void withoutTheHostsEnvironmentNothingIsVerified() {
    String error = run(Map.of(), bound(bare("dark theme"))).refusal();

    assertThat(error)
        .isEqualTo(
            "execution envelope cannot be verified: environment variable LOOPX_EXTENSION_ID is"
                + " not set; environment variable LOOPX_EXTENSION_REVISION is not set");
    assertThat(corpusReads).hasValue(0);
  }

  // ---------------------------------------------------------------------------------- doctor

  @Test
  void doctorLoadsTheCorpusAndExitsZeroWithoutReadingStdinOrWriting() {
    InputStream unreadable =
        new InputStream() {
          @Override
          public int read() {
            throw new AssertionError("the doctor must not read stdin");
          }
        };

    Run run = run(Map.of(), unreadable, "--doctor");

    assertThat(run.code()).isZero();
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).isEmpty();
    assertThat(corpusReads).hasValue(1);
  }

  @Test
  void doctorFailsWhenTheCorpusCannotBeLoaded() {
    SemanticPreferenceProvider broken =
        new SemanticPreferenceProvider(
            ENV,
            () -> {
              throw new IllegalStateException("corpus /corpus/preferences.json is missing");
            });
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code =
        ProviderMain.execute(
            new String[] {"--doctor"}, broken, InputStream.nullInputStream(), out, err);

    assertThat(code).isEqualTo(1);
    assertThat(out.toByteArray()).isEmpty();
    assertThat(err.toString(UTF_8)).contains("corpus /corpus/preferences.json is missing");
  }

  @Test
  void theRealProviderDoctorIsReady() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code =
        ProviderMain.execute(
            new String[] {"--doctor"},
            new SemanticPreferenceProvider(),
            InputStream.nullInputStream(),
            out,
            err);

    assertThat(code).isZero();
    assertThat(out.toByteArray()).isEmpty();
    assertThat(err.toByteArray()).isEmpty();
  }

  // ------------------------------------------------------------------ the response schema bites

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '^',
      value = {
        "extra key        | {\"ok\":true,\"schema_version\":\"semantic_preference_provider_response_v0\","
            + "\"items\":[],\"x\":1}",
        "bad ref          | {\"ok\":true,\"schema_version\":\"semantic_preference_provider_response_v0\","
            + "\"items\":[{\"preference_ref\":\"Dark\",\"summary\":\"s\"}]}",
        "missing summary  | {\"ok\":true,\"schema_version\":\"semantic_preference_provider_response_v0\","
            + "\"items\":[{\"preference_ref\":\"pref-a\"}]}",
        "other version    | {\"ok\":true,\"schema_version\":\"semantic_preference_response_v0\","
            + "\"items\":[]}",
        "failure ok true  | {\"ok\":true,\"schema_version\":\"semantic_preference_provider_response_v0\","
            + "\"error\":\"x\"}",
      })
  void responseSchemaRejectsOtherShapes(String name, String response) {
    assertThat(JsonSchemas.problems(responseSchema, StrictJson.parse(response.getBytes(UTF_8))))
        .isNotEmpty();
  }
}
