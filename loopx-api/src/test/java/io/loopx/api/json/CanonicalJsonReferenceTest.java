package io.loopx.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.loopx.api.InvalidValueException;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The optimised {@link CanonicalJson} against {@link ReferenceCanonicalJson}, the plain
 * implementation it replaced: same bytes, same text, same digest, same errors.
 */
class CanonicalJsonReferenceTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static void assertSame(JsonNode tree) {
    Throwable expectedError = catchThrowable(() -> ReferenceCanonicalJson.toBytes(tree));
    if (expectedError != null) {
      assertThat(catchThrowable(() -> CanonicalJson.toBytes(tree)))
          .isInstanceOf(InvalidValueException.class)
          .hasMessage(expectedError.getMessage());
      assertThat(catchThrowable(() -> CanonicalJson.toText(tree)))
          .isInstanceOf(InvalidValueException.class)
          .hasMessage(expectedError.getMessage());
      return;
    }
    assertThat(CanonicalJson.toBytes(tree)).isEqualTo(ReferenceCanonicalJson.toBytes(tree));
    assertThat(CanonicalJson.toText(tree)).isEqualTo(ReferenceCanonicalJson.toText(tree));
    assertThat(CanonicalJson.sha256Hex(tree)).isEqualTo(ReferenceCanonicalJson.sha256Hex(tree));
  }

  @Test
  void randomTreesCanonicaliseAsTheReferenceDoes() {
    qt().withExamples(2_000)
        .forAll(JsonTrees.trees())
        .checkAssert(CanonicalJsonReferenceTest::assertSame);
  }

  @Test
  void longStringsOfStressCodeUnitsCanonicaliseAsTheReferenceDoes() {
    // Up to 600 units from escapes, controls, 1- to 3-byte characters, pairs and lone surrogates,
    // so that escapes (6 bytes for one unit) exceed the 3-bytes-per-unit reservation many times.
    char[] units = {
      0x00, 0x01, 0x1f, '\b', '\t', '\n', '\f', '\r', '"', '\\', '/', 'a', 0x7f, 0x80, 0x7ff, 0x800,
      0x20ac, 0xfeff, 0xffff, 0xd83d, 0xde00
    };
    qt().withExamples(500)
        .forAll(lists().of(integers().between(0, units.length - 1)).ofSizeBetween(0, 600))
        .checkAssert(
            picks -> {
              StringBuilder s = new StringBuilder();
              picks.forEach(p -> s.append(units[p]));
              String text = s.toString();
              ObjectNode object = NODES.objectNode();
              object.put(text, text);
              object.put("k", 1);
              assertSame(NODES.stringNode(text));
              assertSame(object);
            });
  }

  @Test
  void allControlsOnlyAndLargeInputsCanonicaliseAsTheReferenceDoes() {
    StringBuilder controls = new StringBuilder();
    for (int i = 0; i < 5_000; i++) {
      controls.append((char) (i % 0x20));
    }
    assertSame(NODES.stringNode(controls.toString()));
    ArrayNode big = NODES.arrayNode();
    for (int i = 0; i < 20_000; i++) {
      big.add(i % 3 == 0 ? NODES.numberNode(i * 1.5) : NODES.stringNode("é" + i + "\u0001"));
    }
    assertSame(big);
  }

  @Test
  void numbersAtTheEdgesCanonicaliseAsTheReferenceDoes() {
    long safe = 1L << 53;
    for (JsonNode n :
        List.<JsonNode>of(
            NODES.numberNode(0),
            NODES.numberNode(-1),
            NODES.numberNode(Integer.MIN_VALUE),
            NODES.numberNode(Integer.MAX_VALUE),
            NODES.numberNode(safe),
            NODES.numberNode(-safe),
            NODES.numberNode(safe + 1),
            NODES.numberNode(-safe - 1),
            NODES.numberNode(Long.MIN_VALUE),
            NODES.numberNode(Long.MAX_VALUE),
            NODES.numberNode(BigInteger.valueOf(safe)),
            NODES.numberNode(BigInteger.TEN.pow(30)),
            NODES.numberNode((short) -7),
            NODES.numberNode(-0.0),
            NODES.numberNode(5e-324),
            NODES.numberNode(1e21),
            NODES.numberNode(1.5f),
            NODES.numberNode(Double.NaN),
            NODES.numberNode(Double.NEGATIVE_INFINITY))) {
      assertSame(n);
      assertSame(NODES.arrayNode().add(n).add(n));
    }
  }

  @Test
  void nonJsonNodesFailAsTheReferenceDoes() {
    assertSame(NODES.missingNode());
    assertSame(NODES.arrayNode().add(NODES.pojoNode(new Object())));
    assertSame(NODES.objectNode().set("b", NODES.binaryNode(new byte[] {1})));
  }
}
