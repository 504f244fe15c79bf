package io.loopx.api.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.json.CanonicalJson;
import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzz target: arbitrary bytes that parse as a strict JSON object either verify against a fixed
 * expectation, and then the envelope binds exactly the returned bare request, or are rejected with
 * an {@link ErrorKind#ENVELOPE_MISMATCH}; never another exception. In the normal build Jazzer runs
 * it in regression mode over the seeds in {@code EnvelopeVerifierFuzzTestInputs/<method>/} (a valid
 * bound request and near misses); set {@code JAZZER_FUZZ=1} to fuzz.
 */
class EnvelopeVerifierFuzzTest {
  private static final String SEEDS =
      "EnvelopeVerifierFuzzTestInputs/verifyReturnsTheBareRequestOrAnEnvelopeMismatch/";
  private static final EnvelopeVerifier.Expectation EXPECTED = Envelopes.expectation();

  @FuzzTest(maxDuration = "30s")
  void verifyReturnsTheBareRequestOrAnEnvelopeMismatch(byte[] input) {
    JsonNode parsed;
    try {
      parsed = StrictJson.parse(input);
    } catch (InvalidJsonException e) {
      return; // not strict JSON: nothing for the verifier to read
    }
    if (!(parsed instanceof ObjectNode request)) {
      return;
    }
    String before = request.toString();
    ObjectNode bare;
    try {
      bare = EnvelopeVerifier.verify(request, EXPECTED);
    } catch (LoopxException e) {
      assertThat(e.kind()).isEqualTo(ErrorKind.ENVELOPE_MISMATCH);
      assertThat(e.getMessage()).startsWith("execution envelope ");
      assertThat(request.toString()).isEqualTo(before);
      return;
    }
    assertThat(request.toString()).isEqualTo(before);
    JsonNode envelope = request.get(ExecutionEnvelope.REQUEST_KEY);
    assertThat(bare.has(ExecutionEnvelope.REQUEST_KEY)).isFalse();
    assertThat(bare.size()).isEqualTo(request.size() - 1);
    assertThat(ExecutionEnvelope.requestDigest(bare).value())
        .isEqualTo(envelope.get("request_digest").asString());
    assertThat(CanonicalJson.toText(envelope.get("scope")))
        .isEqualTo(CanonicalJson.toText(EXPECTED.scope()));
  }

  private static ObjectNode seed(String name) throws IOException {
    try (InputStream in =
        Objects.requireNonNull(
            EnvelopeVerifierFuzzTest.class.getResourceAsStream(SEEDS + name), name)) {
      return StrictJson.parseObject(in.readAllBytes());
    }
  }

  /** Keeps the seed corpus honest: the valid seeds really verify. */
  @ParameterizedTest
  @ValueSource(strings = {"valid-bound-request.json", "valid-reordered-pretty.json"})
  void validSeedsVerify(String name) throws IOException {
    ObjectNode request = seed(name);

    assertThat(EnvelopeVerifier.verify(request, EXPECTED).get("text").asString())
        .isEqualTo("grüße 😀");
  }

  /** Keeps the seed corpus honest: the near misses really are rejected. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "near-miss-action.json",
        "near-miss-digest-type.json",
        "near-miss-envelope-removed.json",
        "near-miss-envelope-string.json",
        "near-miss-extension-id.json",
        "near-miss-extra-field.json",
        "near-miss-huge-number.json",
        "near-miss-missing-digest.json",
        "near-miss-request-changed.json",
        "near-miss-request-key-added.json",
        "near-miss-revision.json",
        "near-miss-schema-version.json",
        "near-miss-scope-narrower.json",
        "near-miss-scope-wider.json"
      })
  void nearMissSeedsAreRejected(String name) throws IOException {
    ObjectNode request = seed(name);

    assertThatThrownBy(() -> EnvelopeVerifier.verify(request, EXPECTED))
        .isInstanceOf(LoopxException.class)
        .satisfies(
            e -> assertThat(((LoopxException) e).kind()).isEqualTo(ErrorKind.ENVELOPE_MISMATCH));
  }

  @Test
  void theOtherSeedsNeverReachTheVerifier() {
    for (String name :
        new String[] {
          "near-miss-lone-surrogate-scope.json",
          "not-an-object.json",
          "not-json.json",
          "invalid-utf8.json"
        }) {
      assertThatThrownBy(() -> seed(name)).as(name).isInstanceOf(InvalidJsonException.class);
    }
  }
}
