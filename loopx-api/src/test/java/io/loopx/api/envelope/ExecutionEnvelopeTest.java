package io.loopx.api.envelope;

import static io.loopx.api.envelope.Envelopes.ACTION;
import static io.loopx.api.envelope.Envelopes.ID;
import static io.loopx.api.envelope.Envelopes.REVISION;
import static io.loopx.api.envelope.Envelopes.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.Digest;
import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.json.CanonicalJson;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class ExecutionEnvelopeTest {
  private static final Digest DIGEST = Digest.of("sha256:" + "ab".repeat(32));

  private static ExecutionEnvelope envelope(ObjectNode scope) {
    return new ExecutionEnvelope(ACTION, scope, ID, REVISION, DIGEST);
  }

  /** A scope {"k":"<filler>"} whose canonical form has exactly {@code bytes} UTF-8 bytes. */
  private static ObjectNode scopeOfBytes(int bytes, String unit, int unitBytes) {
    int payload = bytes - "{\"k\":\"\"}".length();
    StringBuilder s = new StringBuilder(unit.repeat(payload / unitBytes));
    s.append("x".repeat(payload % unitBytes));
    ObjectNode scope = JsonNodeFactory.instance.objectNode().put("k", s.toString());
    assertThat(CanonicalJson.toBytes(scope)).hasSize(bytes);
    return scope;
  }

  private static String sha256(String text) throws Exception {
    return "sha256:"
        + HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void constantsAreTheWireNames() {
    assertThat(ExecutionEnvelope.SCHEMA_VERSION).isEqualTo("loopx_extension_execution_envelope_v0");
    assertThat(ExecutionEnvelope.REQUEST_KEY).isEqualTo("execution_envelope");
    assertThat(ExecutionEnvelope.MAX_SCOPE_BYTES).isEqualTo(16_384);
  }

  @Test
  void toJsonHasExactlyTheSchemaFieldsInOrder() {
    ObjectNode json = envelope(Envelopes.scope()).toJson();

    assertThat(List.copyOf(json.propertyNames()))
        .containsExactly("schema_version", "action", "scope", "extension", "request_digest");
    assertThat(List.copyOf(json.get("extension").propertyNames()))
        .containsExactly("id", "revision");
    assertThat(json.toString())
        .isEqualTo(
            "{\"schema_version\":\"loopx_extension_execution_envelope_v0\","
                + "\"action\":\"files.write\","
                + "\"scope\":{\"path\":\"notes/today.md\",\"mode\":\"append\"},"
                + "\"extension\":{\"id\":\"demo-writer\",\"revision\":\"0123456789abcdef\"},"
                + "\"request_digest\":\""
                + DIGEST.value()
                + "\"}");
  }

  @Test
  void toJsonReturnsAFreshObjectEachTime() {
    ExecutionEnvelope envelope = envelope(Envelopes.scope());
    ObjectNode first = envelope.toJson();
    ((ObjectNode) first.get("scope")).put("path", "/etc/passwd");
    first.put("action", "other");

    assertThat(envelope.toJson()).isNotSameAs(first);
    assertThat(envelope.toJson().get("scope")).isEqualTo(Envelopes.scope());
    assertThat(envelope.toJson().get("action").asString()).isEqualTo("files.write");
  }

  @Test
  void scopeIsDeepCopiedInAndOut() {
    ObjectNode scope = json("{\"paths\":[\"a\"],\"limits\":{\"bytes\":10}}");
    ExecutionEnvelope envelope = envelope(scope);
    ((ObjectNode) scope.get("limits")).put("bytes", 99);
    ((ArrayNode) envelope.scope().get("paths")).add("b");

    assertThat(envelope.scope()).isEqualTo(json("{\"paths\":[\"a\"],\"limits\":{\"bytes\":10}}"));
  }

  @Test
  void emptyScopeIsAnInvalidValue() {
    assertThatThrownBy(() -> envelope(JsonNodeFactory.instance.objectNode()))
        .isInstanceOf(InvalidValueException.class)
        .hasMessage("invalid execution envelope scope `{}`: must be a non-empty JSON object");
  }

  @Test
  void scopeOfExactly16384CanonicalBytesIsAccepted() {
    ObjectNode scope = scopeOfBytes(16_384, "x", 1);
    assertThat(envelope(scope).scope()).isEqualTo(scope);
  }

  @Test
  void scopeOf16385CanonicalBytesIsRejected() {
    assertThatThrownBy(() -> envelope(scopeOfBytes(16_385, "x", 1)))
        .isInstanceOf(InvalidValueException.class)
        .extracting(e -> ((LoopxException) e).kind())
        .isEqualTo(ErrorKind.INVALID_VALUE);
    assertThatThrownBy(() -> envelope(scopeOfBytes(16_385, "x", 1)))
        .hasMessageStartingWith("invalid execution envelope scope `{\"k\":\"xxx")
        .hasMessageEndingWith("...`: its canonical JSON is 16385 bytes, over the 16384-byte limit");
  }

  @Test
  void scopeSizeCountsUtf8BytesOfNonAsciiText() {
    // "é" is two UTF-8 bytes and "😀" four: the limit is on bytes, not characters.
    ObjectNode twoByte = scopeOfBytes(16_384, "é", 2);
    ObjectNode fourByte = scopeOfBytes(16_384, "😀", 4);
    assertThat(twoByte.get("k").asString()).hasSizeLessThan(8_200);
    assertThat(envelope(twoByte).scope()).isEqualTo(twoByte);
    assertThat(envelope(fourByte).scope()).isEqualTo(fourByte);

    assertThatThrownBy(() -> envelope(scopeOfBytes(16_385, "é", 2)))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("16385 bytes");
    assertThatThrownBy(() -> envelope(scopeOfBytes(16_385, "😀", 4)))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("16385 bytes");
  }

  @Test
  void scopeThatIsNotIJsonIsAnInvalidValue() {
    ObjectNode loneSurrogate = JsonNodeFactory.instance.objectNode().put("k", "\ud800");
    ObjectNode hugeNumber = JsonNodeFactory.instance.objectNode().put("k", new BigDecimal("1e400"));

    assertThatThrownBy(() -> envelope(loneSurrogate)).isInstanceOf(InvalidValueException.class);
    assertThatThrownBy(() -> envelope(hugeNumber)).isInstanceOf(InvalidValueException.class);
  }

  @Test
  void requestDigestIsSha256OfTheCanonicalRequestWithoutTheEnvelope() throws Exception {
    ObjectNode request = json("{\"z\":1,\"a\":[true,null,2.5],\"execution_envelope\":{\"x\":1}}");

    assertThat(ExecutionEnvelope.requestDigest(request).value())
        .isEqualTo(sha256("{\"a\":[true,null,2.5],\"z\":1}"));
  }

  @Test
  void requestDigestIgnoresOnlyTheEnvelopeKeyAndDoesNotModifyTheInput() {
    ObjectNode bare = json("{\"text\":\"hi\",\"nested\":{\"execution_envelope\":1}}");
    ObjectNode withEnvelope = bare.deepCopy();
    withEnvelope.set("execution_envelope", envelope(Envelopes.scope()).toJson());
    String before = withEnvelope.toString();

    assertThat(ExecutionEnvelope.requestDigest(withEnvelope))
        .isEqualTo(ExecutionEnvelope.requestDigest(bare));
    assertThat(withEnvelope.toString()).isEqualTo(before);
    // A nested key of the same name is ordinary request content.
    ObjectNode nestedChanged = json("{\"text\":\"hi\",\"nested\":{\"execution_envelope\":2}}");
    assertThat(ExecutionEnvelope.requestDigest(nestedChanged))
        .isNotEqualTo(ExecutionEnvelope.requestDigest(bare));
  }

  @Test
  void requestDigestDoesNotDependOnKeyOrder() {
    ObjectNode one = json("{\"a\":1,\"b\":{\"x\":\"é\",\"y\":[1,{\"p\":1,\"q\":2}]},\"c\":null}");
    ObjectNode other = json("{\"c\":null,\"b\":{\"y\":[1,{\"q\":2,\"p\":1}],\"x\":\"é\"},\"a\":1}");

    assertThat(ExecutionEnvelope.requestDigest(one))
        .isEqualTo(ExecutionEnvelope.requestDigest(other));
  }

  @Test
  void requestDigestOfNonAsciiContentHashesUtf8() throws Exception {
    ObjectNode request = json("{\"text\":\"grüße 世界 😀\",\"€\":1}");

    assertThat(ExecutionEnvelope.requestDigest(request).value())
        .isEqualTo(sha256("{\"text\":\"grüße 世界 😀\",\"€\":1}"));
  }

  @Test
  void requestDigestOfEmptyRequestIsTheDigestOfEmptyObject() throws Exception {
    assertThat(ExecutionEnvelope.requestDigest(json("{\"execution_envelope\":null}")).value())
        .isEqualTo(sha256("{}"));
  }

  @Test
  void requestThatIsNotIJsonHasNoDigest() {
    ObjectNode request = JsonNodeFactory.instance.objectNode().put("k", "\udc00");

    assertThatThrownBy(() -> ExecutionEnvelope.requestDigest(request))
        .isInstanceOf(InvalidValueException.class);
  }

  @Test
  void equalityComparesScopesCanonically() {
    ExecutionEnvelope one = envelope(json("{\"a\":1,\"b\":[2.0]}"));
    ExecutionEnvelope same = envelope(json("{\"b\":[2],\"a\":1.0}"));
    ExecutionEnvelope other = envelope(json("{\"a\":1,\"b\":[3]}"));

    assertThat(one).isEqualTo(same).hasSameHashCodeAs(same).isNotEqualTo(other);
    assertThat(one)
        .isNotEqualTo(
            new ExecutionEnvelope(
                ACTION, json("{\"a\":1,\"b\":[2.0]}"), ID, REVISION, Digest.of(sha256Zero())));
  }

  private static String sha256Zero() {
    return "sha256:" + "0".repeat(64);
  }
}
