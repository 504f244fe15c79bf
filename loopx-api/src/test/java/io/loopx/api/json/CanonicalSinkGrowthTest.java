package io.loopx.api.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.envelope.ExecutionEnvelope;
import io.loopx.api.internal.CanonicalWriter;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A digesting canonical sink starts at 256 bytes and grows to its 4,096-byte streaming buffer the
 * first time it fills: documents whose canonical length is around both sizes (a string, an escaped
 * string, a number written across the growth, many members) digest exactly as the reference does,
 * through {@code sha256Hex}, {@code digestWithout} and {@code copyAndDigest}.
 */
class CanonicalSinkGrowthTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @Test
  void digestsAroundTheInitialAndStreamingSizes() {
    for (int length = 200; length <= 300; length++) {
      check(length);
    }
    for (int length = 4_000; length <= 4_200; length += 3) {
      check(length);
    }
    for (int length = 8_150; length <= 8_250; length += 7) {
      check(length);
    }
  }

  private static void check(int length) {
    String plain = "a".repeat(length);
    String escaped = "\n\u00e9\ud83d\ude00".repeat(length / 8 + 1);
    ObjectNode a = NODES.objectNode().put("s", plain);
    ObjectNode b = NODES.objectNode().put("s", escaped);
    ObjectNode c =
        NODES.objectNode().put("s", plain.substring(0, length - 10)).put("n", 0.1 * length);
    ObjectNode d = NODES.objectNode();
    for (int i = 0; i < length / 16; i++) {
      d.put("k" + i, i * 1.5);
    }
    for (ObjectNode node : new ObjectNode[] {a, b, c, d}) {
      assertThat(CanonicalWriter.sha256Hex(node))
          .as("length %d", length)
          .isEqualTo(ReferenceCanonicalJson.sha256Hex(node));
      assertThat(CanonicalWriter.digestWithout(node, ExecutionEnvelope.REQUEST_KEY))
          .isEqualTo(ReferenceCanonicalJson.digest(node));
      CanonicalWriter.Copy copy =
          CanonicalWriter.copyAndDigest(node, ExecutionEnvelope.REQUEST_KEY, null);
      assertThat(copy.digest()).isEqualTo(ReferenceCanonicalJson.digest(node));
      assertThat(copy.copy()).isEqualTo(node);
    }
  }
}
