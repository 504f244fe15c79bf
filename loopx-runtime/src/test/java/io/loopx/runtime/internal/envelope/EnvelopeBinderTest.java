package io.loopx.runtime.internal.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.envelope.EnvelopeVerifier.Expectation;
import io.loopx.api.envelope.ExecutionEnvelope;
import io.loopx.api.json.StrictJson;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class EnvelopeBinderTest {
  private static final ActionToken ACTION = ActionToken.of("semantic_preference.recall");
  private static final ExtensionId ID = ExtensionId.of("semantic-preference");
  private static final Revision REVISION = Revision.of("1566783bb5842048");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static ObjectNode json(String text) {
    return StrictJson.parseObject(text.getBytes(StandardCharsets.UTF_8));
  }

  private static ObjectNode scope() {
    return json("{\"namespace\":\"user:ünïcødé\",\"max_items\":5}");
  }

  private static ObjectNode request() {
    return json(
        "{\"schema_version\":\"recall_v1\",\"query\":\"日本語 ok\",\"k\":3,\"flags\":[true,null]}");
  }

  private static ObjectNode bind(ObjectNode scope, ObjectNode request) {
    return EnvelopeBinder.bind(ACTION, scope, ID, REVISION, request);
  }

  @Test
  void boundRequestKeepsTheRequestKeysInOrderAndAppendsTheEnvelope() {
    ObjectNode bound = bind(scope(), request());

    assertThat(List.copyOf(bound.propertyNames()))
        .containsExactly("schema_version", "query", "k", "flags", "execution_envelope");
    ObjectNode envelope = (ObjectNode) bound.get("execution_envelope");
    assertThat(List.copyOf(envelope.propertyNames()))
        .containsExactly("schema_version", "action", "scope", "extension", "request_digest");
    assertThat(envelope.toString())
        .isEqualTo(
            "{\"schema_version\":\"loopx_extension_execution_envelope_v0\","
                + "\"action\":\"semantic_preference.recall\","
                + "\"scope\":{\"namespace\":\"user:ünïcødé\",\"max_items\":5},"
                + "\"extension\":{\"id\":\"semantic-preference\",\"revision\":\"1566783bb5842048\"},"
                + "\"request_digest\":\""
                + ExecutionEnvelope.requestDigest(request()).value()
                + "\"}");
  }

  @Test
  void boundRequestVerifiesAndYieldsTheOriginalRequest() {
    ObjectNode bound = bind(scope(), request());

    ObjectNode bare =
        EnvelopeVerifier.verify(bound, new Expectation(ACTION, scope(), ID, REVISION));

    assertThat(bare).isEqualTo(request());
    assertThat(bare.toString()).isEqualTo(request().toString());
  }

  @Test
  void boundRequestSurvivesTheWire() {
    byte[] wire = StrictJson.toCompactBytes(bind(scope(), request()));

    ObjectNode received = StrictJson.parseObject(wire);

    assertThat(EnvelopeVerifier.verify(received, new Expectation(ACTION, scope(), ID, REVISION)))
        .isEqualTo(request());
  }

  @Test
  void inputsAreNotModifiedAndTheResultSharesNothingWithThem() {
    ObjectNode request = request();
    ObjectNode scope = scope();

    ObjectNode bound = bind(scope, request);
    bound.withArrayProperty("flags").add(1);
    ((ObjectNode) bound.get("execution_envelope").get("scope")).put("max_items", 500);
    scope.put("max_items", 50);

    assertThat(request.toString()).isEqualTo(request().toString());
    assertThat(bind(scope(), request())).isNotSameAs(bound);
    assertThat(bind(scope(), request()).get("flags").size()).isEqualTo(2);
  }

  @Test
  void emptyRequestIsBound() {
    ObjectNode bound = bind(scope(), NODES.objectNode());

    assertThat(List.copyOf(bound.propertyNames())).containsExactly("execution_envelope");
  }

  @Test
  void callerSuppliedEnvelopeIsRejected() {
    for (ObjectNode request :
        List.of(
            json("{\"execution_envelope\":{}}"),
            json("{\"a\":1,\"execution_envelope\":null}"),
            bind(scope(), request()))) {
      assertThatThrownBy(() -> bind(scope(), request))
          .isExactlyInstanceOf(LoopxException.class)
          .hasMessage("request contains reserved field `execution_envelope`")
          .satisfies(
              e -> assertThat(((LoopxException) e).kind()).isEqualTo(ErrorKind.REQUEST_INVALID));
    }
  }

  @Test
  void aNestedKeyNamedLikeTheEnvelopeIsOrdinaryContent() {
    ObjectNode request = json("{\"data\":{\"execution_envelope\":\"not reserved here\"}}");

    ObjectNode bound = bind(scope(), request);

    assertThat(EnvelopeVerifier.verify(bound, new Expectation(ACTION, scope(), ID, REVISION)))
        .isEqualTo(request);
  }

  @Test
  void requestThatIsNotIJsonIsRejected() {
    ObjectNode request = NODES.objectNode().put("n", new BigDecimal("1e400"));

    assertThatThrownBy(() -> bind(scope(), request))
        .isExactlyInstanceOf(LoopxException.class)
        .hasMessageStartingWith("request has no canonical JSON form: ")
        .hasMessageContaining("1E+400")
        .hasCauseInstanceOf(InvalidValueException.class)
        .satisfies(
            e -> assertThat(((LoopxException) e).kind()).isEqualTo(ErrorKind.REQUEST_INVALID));
  }

  @Test
  void emptyScopeIsAHostProgrammingError() {
    assertThatThrownBy(() -> bind(NODES.objectNode(), request()))
        .isInstanceOf(InvalidValueException.class)
        .hasMessage("invalid execution envelope scope `{}`: must be a non-empty JSON object")
        .satisfies(e -> assertThat(((LoopxException) e).kind()).isEqualTo(ErrorKind.INVALID_VALUE));
  }

  @Test
  void scopeSizeLimitIsOnCanonicalBytes() {
    // {"k":"..."} is 8 bytes plus the text; "ü" is two UTF-8 bytes.
    ObjectNode atLimit = NODES.objectNode().put("k", "ü".repeat(8_188));
    ObjectNode overLimit = NODES.objectNode().put("k", "ü".repeat(8_188) + "x");

    assertThat(bind(atLimit, request()).get("execution_envelope").get("scope")).isEqualTo(atLimit);
    assertThatThrownBy(() -> bind(overLimit, request()))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageEndingWith("its canonical JSON is 16385 bytes, over the 16384-byte limit");
  }

  @Test
  void callerErrorsAreReportedBeforeHostErrors() {
    assertThatThrownBy(() -> bind(NODES.objectNode(), json("{\"execution_envelope\":1}")))
        .isExactlyInstanceOf(LoopxException.class)
        .hasMessage("request contains reserved field `execution_envelope`");
    assertThatThrownBy(
            () -> bind(NODES.objectNode(), NODES.objectNode().put("n", new BigDecimal("1e400"))))
        .isExactlyInstanceOf(LoopxException.class)
        .hasMessageStartingWith("request has no canonical JSON form");
  }
}
