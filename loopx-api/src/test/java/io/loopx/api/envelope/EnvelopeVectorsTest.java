package io.loopx.api.envelope;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.json.CanonicalJson;
import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks the implementation against the committed, language-neutral vectors in {@code
 * docs/contract/vectors/envelope-vectors-v1.json} (written once by {@link
 * EnvelopeVectorsGenerator}): a change of canonical JSON, of the digest, of the envelope's wire
 * form or of a verification message fails here. The Python kit's tests read the same file.
 */
class EnvelopeVectorsTest {
  static final Path VECTORS =
      Path.of("..", "docs", "contract", "vectors", "envelope-vectors-v1.json");

  private static JsonNode vectors() throws IOException {
    return StrictJson.parse(Files.readAllBytes(VECTORS));
  }

  private static List<JsonNode> rows(String section) throws IOException {
    JsonNode rows = vectors().get(section);
    assertThat(rows.isArray()).as(section).isTrue();
    return rows.valueStream().toList();
  }

  private static ObjectNode parse(String text) {
    return StrictJson.parseObject(text.getBytes(UTF_8));
  }

  private static EnvelopeVerifier.Expectation expectation() throws IOException {
    JsonNode e = vectors().get("expectation");
    return new EnvelopeVerifier.Expectation(
        ActionToken.of(e.get("action").stringValue()),
        (ObjectNode) e.get("scope"),
        ExtensionId.of(e.get("extension_id").stringValue()),
        Revision.of(e.get("revision").stringValue()));
  }

  @Test
  void theFileIsVersionedAndItsExpectationIsTheGenerators() throws IOException {
    JsonNode v = vectors();
    assertThat(v.get("schema_version").stringValue()).isEqualTo(EnvelopeVectorsGenerator.SCHEMA);
    assertThat(expectation())
        .isEqualTo(
            new EnvelopeVerifier.Expectation(
                ActionToken.of(EnvelopeVectorsGenerator.ACTION),
                EnvelopeVectorsGenerator.json(EnvelopeVectorsGenerator.SCOPE),
                ExtensionId.of(EnvelopeVectorsGenerator.EXTENSION_ID),
                Revision.of(EnvelopeVectorsGenerator.REVISION)));
    assertThat(rows("canonical")).hasSizeGreaterThanOrEqualTo(30);
    assertThat(rows("no_canonical_form")).hasSizeGreaterThanOrEqualTo(6);
    assertThat(rows("accepted")).hasSizeGreaterThanOrEqualTo(7);
    assertThat(rows("refused")).hasSizeGreaterThanOrEqualTo(25);
  }

  @Test
  void canonicalFormsDigestsAndEnvelopesMatchTheVectors() throws IOException {
    for (JsonNode row : rows("canonical")) {
      String name = row.get("name").stringValue();
      ObjectNode request = parse(row.get("input").stringValue());
      byte[] canonical = CanonicalJson.toBytes(request);
      assertThat(new String(canonical, UTF_8))
          .as(name)
          .isEqualTo(row.get("canonical").stringValue());
      assertThat(HexFormat.of().formatHex(canonical))
          .as(name)
          .isEqualTo(row.get("canonical_utf8_hex").stringValue());
      assertThat(CanonicalJson.digest(request).value())
          .as(name)
          .isEqualTo(row.get("request_digest").stringValue());
      assertThat(ExecutionEnvelope.requestDigest(request).value())
          .as(name)
          .isEqualTo(row.get("request_digest").stringValue());
      assertThat(
              new String(
                  StrictJson.toCompactBytes(EnvelopeVectorsGenerator.envelopeFor(request)), UTF_8))
          .as(name)
          .isEqualTo(row.get("envelope").stringValue());
    }
  }

  @Test
  void inputsWithoutCanonicalFormAreRefused() throws IOException {
    for (JsonNode row : rows("no_canonical_form")) {
      String input = row.get("input").stringValue();
      Throwable t = catchThrowable(() -> CanonicalJson.toBytes(parse(input)));
      assertThat(t)
          .as(row.get("name").stringValue())
          .isInstanceOfAny(InvalidJsonException.class, InvalidValueException.class);
    }
  }

  @Test
  void acceptedBoundRequestsVerifyToTheirBareRequest() throws IOException {
    EnvelopeVerifier.Expectation expected = expectation();
    for (JsonNode row : rows("accepted")) {
      String name = row.get("name").stringValue();
      ObjectNode bare = EnvelopeVerifier.verify(parse(row.get("bound").stringValue()), expected);
      assertThat(bare.has(ExecutionEnvelope.REQUEST_KEY)).as(name).isFalse();
      assertThat(CanonicalJson.toText(bare))
          .as(name)
          .isEqualTo(row.get("bare_canonical").stringValue());
      assertThat(ExecutionEnvelope.requestDigest(bare).value())
          .as(name)
          .isEqualTo(row.get("request_digest").stringValue());
    }
  }

  @Test
  void refusedBoundRequestsFailWithTheExactMessage() throws IOException {
    EnvelopeVerifier.Expectation expected = expectation();
    for (JsonNode row : rows("refused")) {
      String name = row.get("name").stringValue();
      ObjectNode bound = parse(row.get("bound").stringValue());
      assertThatThrownBy(() -> EnvelopeVerifier.verify(bound, expected))
          .as(name)
          .isInstanceOfSatisfying(
              LoopxException.class,
              e -> {
                assertThat(e.kind()).as(name).isEqualTo(ErrorKind.ENVELOPE_MISMATCH);
                assertThat(e.getMessage()).as(name).isEqualTo(row.get("message").stringValue());
              });
    }
  }
}
