package io.loopx.api.envelope;

import static io.loopx.api.envelope.Envelopes.ACTION;
import static io.loopx.api.envelope.Envelopes.ID;
import static io.loopx.api.envelope.Envelopes.REVISION;
import static io.loopx.api.envelope.Envelopes.bind;
import static io.loopx.api.envelope.Envelopes.envelopeOf;
import static io.loopx.api.envelope.Envelopes.expectation;
import static io.loopx.api.envelope.Envelopes.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.envelope.EnvelopeVerifier.Expectation;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class EnvelopeVerifierTest {
  private static final String SCHEMA = "execution envelope fields do not match the schema";
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static ObjectNode request() {
    return json("{\"text\":\"grüße 😀\",\"count\":3,\"options\":{\"dry_run\":false,\"tags\":[]}}");
  }

  private static String mismatch(String field) {
    return "execution envelope " + field + " does not match the operation";
  }

  private static void assertRejected(ObjectNode bound, Expectation expected, String message) {
    String before = bound.toString();
    assertThatThrownBy(() -> EnvelopeVerifier.verify(bound, expected))
        .isExactlyInstanceOf(LoopxException.class)
        .hasMessage(message)
        .satisfies(
            e -> assertThat(((LoopxException) e).kind()).isEqualTo(ErrorKind.ENVELOPE_MISMATCH));
    assertThat(bound.toString()).as("input unchanged").isEqualTo(before);
  }

  private static void assertRejected(ObjectNode bound, String message) {
    assertRejected(bound, expectation(), message);
  }

  private static Arguments mutation(String name, String message, Consumer<ObjectNode> change) {
    return Arguments.of(name, message, change);
  }

  private static Consumer<ObjectNode> onEnvelope(Consumer<ObjectNode> change) {
    return bound -> change.accept(envelopeOf(bound));
  }

  private static Consumer<ObjectNode> onExtension(Consumer<ObjectNode> change) {
    return bound -> change.accept((ObjectNode) envelopeOf(bound).get("extension"));
  }

  // ---------------------------------------------------------------------------------------------
  // Acceptance

  @Test
  void boundRequestVerifiesAndYieldsTheBareRequestInOrder() {
    ObjectNode bound = bind(request());
    String before = bound.toString();

    ObjectNode bare = EnvelopeVerifier.verify(bound, expectation());

    assertThat(bare).isEqualTo(request());
    assertThat(bare.toString()).isEqualTo(request().toString());
    assertThat(bound.toString()).isEqualTo(before);
  }

  @Test
  void theBareRequestIsADeepCopy() {
    ObjectNode bound = bind(request());

    ObjectNode bare = EnvelopeVerifier.verify(bound, expectation());
    ((ObjectNode) bare.get("options")).put("dry_run", true);

    assertThat(bound.get("options").get("dry_run").booleanValue()).isFalse();
  }

  @Test
  void emptyRequestVerifies() {
    ObjectNode bare = EnvelopeVerifier.verify(bind(NODES.objectNode()), expectation());
    assertThat(bare.isEmpty()).isTrue();
  }

  @Test
  void envelopePositionAndKeyOrderDoNotMatter() {
    ObjectNode bound = bind(request());
    ObjectNode reordered = NODES.objectNode();
    reordered.set("execution_envelope", bound.get("execution_envelope"));
    reordered.set("options", json("{\"tags\":[],\"dry_run\":false}"));
    reordered.set("count", bound.get("count"));
    reordered.set("text", bound.get("text"));

    assertThat(EnvelopeVerifier.verify(reordered, expectation()).toString())
        .isEqualTo(
            "{\"options\":{\"tags\":[],\"dry_run\":false},\"count\":3,\"text\":\"grüße 😀\"}");
  }

  @Test
  void scopeIsComparedCanonically() {
    // The same scope with other key order and number forms is exactly equal.
    Expectation expected =
        new Expectation(
            ACTION,
            json("{\"limits\":{\"bytes\":1.0e3,\"files\":2},\"path\":\"a\"}"),
            ID,
            REVISION);
    ObjectNode bound = bind(request());
    envelopeOf(bound)
        .set("scope", json("{\"path\":\"a\",\"limits\":{\"files\":2.0,\"bytes\":1000}}"));

    assertThat(EnvelopeVerifier.verify(bound, expected)).isEqualTo(request());
  }

  @Test
  void requestValuesAreComparedCanonically() {
    ObjectNode bound = bind(json("{\"n\":1000,\"x\":0.5}"));
    bound.set("n", NODES.numberNode(new BigDecimal("1.0e3")));
    bound.put("x", 0.5d);

    assertThat(EnvelopeVerifier.verify(bound, expectation()).get("n").decimalValue())
        .isEqualByComparingTo("1000");
  }

  // ---------------------------------------------------------------------------------------------
  // Rejections: shape

  static Stream<Arguments> deviations() {
    return Stream.of(
        mutation("envelope missing", SCHEMA, b -> b.remove("execution_envelope")),
        mutation("envelope null", SCHEMA, b -> b.putNull("execution_envelope")),
        mutation("envelope a string", SCHEMA, b -> b.put("execution_envelope", "{}")),
        mutation("envelope an array", SCHEMA, b -> b.putArray("execution_envelope")),
        mutation("envelope empty", SCHEMA, b -> b.putObject("execution_envelope")),
        mutation("schema_version missing", SCHEMA, onEnvelope(e -> e.remove("schema_version"))),
        mutation("action missing", SCHEMA, onEnvelope(e -> e.remove("action"))),
        mutation("scope missing", SCHEMA, onEnvelope(e -> e.remove("scope"))),
        mutation("extension missing", SCHEMA, onEnvelope(e -> e.remove("extension"))),
        mutation("request_digest missing", SCHEMA, onEnvelope(e -> e.remove("request_digest"))),
        mutation("extra field", SCHEMA, onEnvelope(e -> e.put("issuer", "host"))),
        mutation("extra null field", SCHEMA, onEnvelope(e -> e.putNull("expires"))),
        mutation("extension.id missing", SCHEMA, onExtension(x -> x.remove("id"))),
        mutation("extension.revision missing", SCHEMA, onExtension(x -> x.remove("revision"))),
        mutation("extension extra field", SCHEMA, onExtension(x -> x.put("version", "1.0.0"))),
        mutation("schema_version a number", SCHEMA, onEnvelope(e -> e.put("schema_version", 0))),
        mutation("action null", SCHEMA, onEnvelope(e -> e.putNull("action"))),
        mutation("action an array", SCHEMA, onEnvelope(e -> e.putArray("action").add("x"))),
        mutation("scope a string", SCHEMA, onEnvelope(e -> e.put("scope", "{}"))),
        mutation("scope an array", SCHEMA, onEnvelope(e -> e.putArray("scope"))),
        mutation("extension a string", SCHEMA, onEnvelope(e -> e.put("extension", "demo-writer"))),
        mutation("extension.id a number", SCHEMA, onExtension(x -> x.put("id", 1))),
        mutation("extension.revision null", SCHEMA, onExtension(x -> x.putNull("revision"))),
        mutation(
            "request_digest a boolean", SCHEMA, onEnvelope(e -> e.put("request_digest", true))),
        // Rejections: values, one per field
        mutation(
            "schema_version other",
            mismatch("schema_version"),
            onEnvelope(e -> e.put("schema_version", "loopx_extension_execution_envelope_v1"))),
        mutation(
            "action other", mismatch("action"), onEnvelope(e -> e.put("action", "files.delete"))),
        mutation(
            "action not a token",
            mismatch("action"),
            onEnvelope(e -> e.put("action", "Files.Write"))),
        mutation(
            "scope value other",
            mismatch("scope"),
            onEnvelope(
                e -> e.set("scope", json("{\"path\":\"/etc/passwd\",\"mode\":\"append\"}")))),
        mutation(
            "scope wider",
            mismatch("scope"),
            onEnvelope(
                e ->
                    e.set(
                        "scope",
                        json(
                            "{\"path\":\"notes/today.md\",\"mode\":\"append\",\"recursive\":true}")))),
        mutation(
            "scope narrower",
            mismatch("scope"),
            onEnvelope(e -> e.set("scope", json("{\"path\":\"notes/today.md\"}")))),
        mutation(
            "scope empty", mismatch("scope"), onEnvelope(e -> e.set("scope", NODES.objectNode()))),
        mutation(
            "scope value of other type",
            mismatch("scope"),
            onEnvelope(
                e -> e.set("scope", json("{\"path\":[\"notes/today.md\"],\"mode\":\"append\"}")))),
        mutation(
            "scope not I-JSON",
            mismatch("scope"),
            onEnvelope(
                e ->
                    e.set(
                        "scope", NODES.objectNode().put("path", "\ud800").put("mode", "append")))),
        mutation(
            "extension id other",
            mismatch("extension"),
            onExtension(x -> x.put("id", "demo-reader"))),
        mutation(
            "extension revision other",
            mismatch("extension"),
            onExtension(x -> x.put("revision", "fedcba9876543210"))),
        mutation(
            "extension revision upper case",
            mismatch("extension"),
            onExtension(x -> x.put("revision", "0123456789ABCDEF"))),
        mutation("request value changed", mismatch("request_digest"), b -> b.put("count", 4)),
        mutation(
            "request nested value changed",
            mismatch("request_digest"),
            b -> ((ObjectNode) b.get("options")).put("dry_run", true)),
        mutation("request key added", mismatch("request_digest"), b -> b.put("path", "/etc")),
        mutation("request key removed", mismatch("request_digest"), b -> b.remove("text")),
        mutation(
            "request not I-JSON",
            mismatch("request_digest"),
            b -> b.put("count", new BigDecimal("1e400"))),
        mutation(
            "request_digest of other request",
            mismatch("request_digest"),
            onEnvelope(e -> e.put("request_digest", "sha256:" + "0".repeat(64)))),
        mutation(
            "request_digest malformed",
            mismatch("request_digest"),
            onEnvelope(e -> e.put("request_digest", "md5:abc"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("deviations")
  void everyDeviationIsAnEnvelopeMismatch(
      String name, String message, Consumer<ObjectNode> change) {
    ObjectNode bound = bind(request());
    change.accept(bound);

    assertRejected(bound, message);
  }

  @Test
  void requestDigestMismatchFromANonIJsonRequestKeepsTheCause() {
    ObjectNode bound = bind(request());
    bound.put("count", new BigDecimal("1e400"));

    assertThatThrownBy(() -> EnvelopeVerifier.verify(bound, expectation()))
        .hasMessage(mismatch("request_digest"))
        .hasCauseInstanceOf(InvalidValueException.class);
  }

  @Test
  void expectationsOtherThanTheBoundOneAreRejected() {
    ObjectNode bound = bind(request());

    assertRejected(
        bound,
        new Expectation(ActionToken.of("files.read"), Envelopes.scope(), ID, REVISION),
        mismatch("action"));
    assertRejected(
        bound,
        new Expectation(
            ACTION,
            json("{\"path\":\"notes/today.md\",\"mode\":\"append\",\"n\":1}"),
            ID,
            REVISION),
        mismatch("scope"));
    assertRejected(
        bound,
        new Expectation(ACTION, json("{\"path\":\"notes/today.md\"}"), ID, REVISION),
        mismatch("scope"));
    assertRejected(
        bound,
        new Expectation(ACTION, Envelopes.scope(), ExtensionId.of("other"), REVISION),
        mismatch("extension"));
    assertRejected(
        bound,
        new Expectation(ACTION, Envelopes.scope(), ID, Revision.of("0000000000000000")),
        mismatch("extension"));
  }

  // ---------------------------------------------------------------------------------------------
  // Check order

  static Stream<Arguments> checkOrder() {
    // Each case breaks its own check and every later one; the first must be reported.
    Consumer<ObjectNode> digest = b -> b.put("count", 4);
    Consumer<ObjectNode> extension = digest.andThen(onExtension(x -> x.put("id", "other")));
    Consumer<ObjectNode> scope =
        extension.andThen(onEnvelope(e -> e.set("scope", json("{\"path\":\"x\"}"))));
    Consumer<ObjectNode> action = scope.andThen(onEnvelope(e -> e.put("action", "other")));
    Consumer<ObjectNode> schemaVersion =
        action.andThen(onEnvelope(e -> e.put("schema_version", "other")));
    Consumer<ObjectNode> shape = schemaVersion.andThen(onEnvelope(e -> e.put("extra", 1)));
    return Stream.of(
        mutation("request_digest last", mismatch("request_digest"), digest),
        mutation("extension before request_digest", mismatch("extension"), extension),
        mutation("scope before extension", mismatch("scope"), scope),
        mutation("action before scope", mismatch("action"), action),
        mutation("schema_version before action", mismatch("schema_version"), schemaVersion),
        mutation("shape first", SCHEMA, shape));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("checkOrder")
  void theFirstFailingCheckIsReported(String name, String message, Consumer<ObjectNode> change) {
    ObjectNode bound = bind(request());
    change.accept(bound);

    assertRejected(bound, message);
  }

  // ---------------------------------------------------------------------------------------------
  // Expectation

  @Test
  void expectationFromEnvironmentReadsIdAndRevision() {
    Expectation expected = Expectation.fromEnvironment(ACTION, Envelopes.scope(), Envelopes.env());

    assertThat(expected).isEqualTo(expectation());
    assertThat(EnvelopeVerifier.verify(bind(request()), expected)).isEqualTo(request());
  }

  static Stream<Arguments> badEnvironments() {
    String prefix = "execution envelope cannot be verified: ";
    return Stream.of(
        Arguments.of(
            Map.of("LOOPX_EXTENSION_REVISION", REVISION.value()),
            prefix + "environment variable LOOPX_EXTENSION_ID is not set"),
        Arguments.of(
            Map.of("LOOPX_EXTENSION_ID", ID.value()),
            prefix + "environment variable LOOPX_EXTENSION_REVISION is not set"),
        Arguments.of(
            Map.of(),
            prefix
                + "environment variable LOOPX_EXTENSION_ID is not set; "
                + "environment variable LOOPX_EXTENSION_REVISION is not set"),
        Arguments.of(
            Map.of(
                "LOOPX_EXTENSION_ID", "Demo_Writer", "LOOPX_EXTENSION_REVISION", REVISION.value()),
            prefix
                + "environment variable LOOPX_EXTENSION_ID is invalid: invalid extension id"
                + " `Demo_Writer`: must be lower-kebab-case ([a-z][a-z0-9]*(-[a-z0-9]+)*)"),
        Arguments.of(
            Map.of("LOOPX_EXTENSION_ID", ID.value(), "LOOPX_EXTENSION_REVISION", "abc"),
            prefix
                + "environment variable LOOPX_EXTENSION_REVISION is invalid: invalid revision id"
                + " `abc`: must be 16 lowercase hex characters"),
        Arguments.of(
            Map.of("LOOPX_EXTENSION_ID", "", "LOOPX_EXTENSION_REVISION", ""),
            prefix
                + "environment variable LOOPX_EXTENSION_ID is invalid: invalid extension id ``:"
                + " must be 1..48 characters of lower-kebab-case; environment variable"
                + " LOOPX_EXTENSION_REVISION is invalid: invalid revision id ``: must be 16"
                + " lowercase hex characters"));
  }

  @ParameterizedTest
  @MethodSource("badEnvironments")
  void missingOrInvalidEnvironmentIsAnEnvelopeMismatchNamingTheVariables(
      Map<String, String> env, String message) {
    assertThatThrownBy(() -> Expectation.fromEnvironment(ACTION, Envelopes.scope(), env))
        .isExactlyInstanceOf(LoopxException.class)
        .hasMessage(message)
        .satisfies(
            e -> assertThat(((LoopxException) e).kind()).isEqualTo(ErrorKind.ENVELOPE_MISMATCH));
  }

  @Test
  void expectationFromTheProcessEnvironmentUsesTheSameRules() {
    String id = System.getenv("LOOPX_EXTENSION_ID");
    String revision = System.getenv("LOOPX_EXTENSION_REVISION");
    if (id == null || revision == null) {
      assertThatThrownBy(() -> Expectation.fromEnvironment(ACTION, Envelopes.scope()))
          .isInstanceOf(LoopxException.class)
          .hasMessageContaining("is not set");
    } else {
      assertThat(Expectation.fromEnvironment(ACTION, Envelopes.scope()).extensionId().value())
          .isEqualTo(id);
    }
  }

  @Test
  void expectationScopeFollowsTheScopeRulesAndIsCopied() {
    assertThatThrownBy(() -> new Expectation(ACTION, NODES.objectNode(), ID, REVISION))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("must be a non-empty JSON object");
    assertThatThrownBy(
            () -> Expectation.fromEnvironment(ACTION, NODES.objectNode(), Envelopes.env()))
        .isInstanceOf(InvalidValueException.class);
    assertThatThrownBy(
            () ->
                new Expectation(
                    ACTION,
                    NODES.objectNode().put("k", "x".repeat(ExecutionEnvelope.MAX_SCOPE_BYTES)),
                    ID,
                    REVISION))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("over the 16384-byte limit");

    ObjectNode scope = Envelopes.scope();
    Expectation expected = new Expectation(ACTION, scope, ID, REVISION);
    scope.put("path", "/");
    expected.scope().put("mode", "truncate");
    assertThat(expected.scope()).isEqualTo(Envelopes.scope());
    assertThat(List.copyOf(expected.scope().propertyNames())).containsExactly("path", "mode");
  }

  @Test
  void expectationEqualityComparesScopesCanonically() {
    Expectation one = new Expectation(ACTION, json("{\"a\":1,\"b\":2}"), ID, REVISION);
    Expectation same = new Expectation(ACTION, json("{\"b\":2.0,\"a\":1}"), ID, REVISION);
    Expectation other = new Expectation(ACTION, json("{\"a\":1}"), ID, REVISION);

    assertThat(one).isEqualTo(same).hasSameHashCodeAs(same).isNotEqualTo(other);
  }
}
