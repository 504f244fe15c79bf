package io.loopx.runtime.internal.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.envelope.EnvelopeVerifier.Expectation;
import io.loopx.api.json.CanonicalJson;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.internal.run.RequestBody;
import java.math.BigDecimal;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzes the host side of a dispatch, from the caller's bytes to the provider's stdin: {@link
 * RequestBody#parse} then {@link EnvelopeBinder#bindForWire}. Any bytes are either refused with
 * {@code request_invalid} or give at most 1,000,000 bytes that verify and in which every number,
 * read at full precision, is exactly the value the request digest canonicalised.
 *
 * <p>The normal build runs the seeds in {@code EnvelopeBinderFuzzTestInputs/<method>/} (regression
 * mode); set {@code JAZZER_FUZZ=1} to fuzz.
 */
class EnvelopeBinderFuzzTest {
  private static final ActionToken ACTION = ActionToken.of("demo.recall");
  private static final ExtensionId ID = ExtensionId.of("demo-provider");
  private static final Revision REVISION = Revision.of("0123456789abcdef");
  private static final ObjectNode SCOPE =
      JsonNodeFactory.instance.objectNode().put("operation", "recall");

  @FuzzTest(maxDuration = "60s")
  void bindSendsOnlyWhatTheDigestBinds(byte[] input) {
    EnvelopeBinder.Bound bound;
    try {
      RequestBody request = RequestBody.parse(input);
      bound = EnvelopeBinder.bindForWire(ACTION, SCOPE, ID, REVISION, request.body());
    } catch (LoopxException e) {
      assertThat(e.kind()).isEqualTo(ErrorKind.REQUEST_INVALID);
      assertThat(e.getMessage()).isNotBlank();
      return;
    }
    assertThat(bound.stdin().length).isLessThanOrEqualTo(RequestBody.MAX_BYTES);
    ObjectNode received = StrictJson.parseObject(bound.stdin());
    ObjectNode bare =
        EnvelopeVerifier.verify(received, new Expectation(ACTION, SCOPE, ID, REVISION));
    assertNumbersAreCanonical(bare);
  }

  private static void assertNumbersAreCanonical(JsonNode node) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        assertNumbersAreCanonical(e.getValue());
      }
    } else if (node.isArray()) {
      for (JsonNode element : node) {
        assertNumbersAreCanonical(element);
      }
    } else if (node.isNumber()) {
      assertThat(node.decimalValue())
          .as("received %s", node)
          .isEqualByComparingTo(new BigDecimal(CanonicalJson.toText(node)));
    }
  }
}
