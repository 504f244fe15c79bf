package io.loopx.api.json;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.loopx.api.InvalidValueException;
import java.math.BigInteger;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class CanonicalJsonTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static JsonNode parse(String json) {
    return StrictJson.parse(json.getBytes(UTF_8));
  }

  /** RFC 8785 §3.2.2 / §3.2.4: the serialisation example, and the UTF-8 bytes it lists. */
  @Test
  void rfc8785SerializationExample() {
    String input =
        "{\n"
            + "  \"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n"
            + "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
            + "  \"literals\": [null, true, false]\n"
            + "}";

    byte[] canonical = CanonicalJson.toBytes(parse(input));

    assertThat(new String(canonical, UTF_8))
        .isEqualTo(
            "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                + "\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
    assertThat(HexFormat.of().formatHex(canonical))
        .isEqualTo(
            "7b226c69746572616c73223a5b6e756c6c2c747275652c66616c73655d2c226e756d62657273223a5b33"
                + "33333333333333332e333333333333332c31652b33302c342e352c302e3030322c31652d32375d2c"
                + "22737472696e67223a22e282ac245c75303030665c6e4127425c225c5c5c5c5c222f227d");
  }

  /** RFC 8785 §3.2.3: property sorting by UTF-16 code units. */
  @Test
  void rfc8785SortingExample() {
    String input =
        "{\n"
            + "  \"\\u20ac\": \"Euro Sign\",\n"
            + "  \"\\r\": \"Carriage Return\",\n"
            + "  \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\",\n"
            + "  \"1\": \"One\",\n"
            + "  \"\\ud83d\\ude00\": \"Emoji: Grinning Face\",\n"
            + "  \"\\u0080\": \"Control\",\n"
            + "  \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"\n"
            + "}";

    assertThat(CanonicalJson.toText(parse(input)))
        .isEqualTo(
            "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
                + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
                + "\"\ud83d\ude00\":\"Emoji: Grinning Face\","
                + "\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
  }

  @Test
  void keysSortByUtf16CodeUnitsNotCodePoints() {
    // U+1F602 is above U+FB33 as a code point, but its first UTF-16 unit 0xD83D is below 0xFB33.
    ObjectNode node = NODES.objectNode().put("\ufb33", 1).put("😂", 2).put("\uffff", 3);
    assertThat(CanonicalJson.toText(node)).isEqualTo("{\"😂\":2,\"\ufb33\":1,\"\uffff\":3}");
  }

  @Test
  void controlCharactersUseShortEscapesOrLowercaseUnicodeEscapes() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x20; c++) {
      all.append(c);
    }
    all.append("\u007f/\"\\é");

    assertThat(CanonicalJson.toText(NODES.stringNode(all.toString())))
        .isEqualTo(
            "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r"
                + "\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018"
                + "\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\u007f/\\\"\\\\é\"");
  }

  @Test
  void structureHasNoWhitespaceAndArraysKeepOrder() {
    JsonNode node =
        parse(" { \"b\" : [ 3 , 1 , { } , [ ] ] , \"a\" : { \"d\" : 1 , \"c\" : 2 } } ");
    assertThat(CanonicalJson.toText(node)).isEqualTo("{\"a\":{\"c\":2,\"d\":1},\"b\":[3,1,{},[]]}");
  }

  @Test
  void loneSurrogatesAreRejectedInStringsAndKeys() {
    for (JsonNode bad :
        List.<JsonNode>of(
            NODES.stringNode("a\ud800"),
            NODES.stringNode("\udc00b"),
            NODES.objectNode().put("\ud83d", 1),
            NODES.arrayNode().add("\ude00\ud83d"))) {
      assertThatThrownBy(() -> CanonicalJson.toBytes(bad))
          .isInstanceOfSatisfying(
              InvalidValueException.class,
              e -> {
                assertThat(e.what()).isEqualTo("canonical JSON string");
                assertThat(e.getMessage()).contains("lone surrogate");
              });
    }
  }

  @Test
  void nodesWithoutAJsonFormAreRejected() {
    for (JsonNode bad :
        List.<JsonNode>of(
            NODES.missingNode(),
            NODES.pojoNode(new Object()),
            NODES.binaryNode(new byte[] {1}),
            NODES.arrayNode().add(NODES.numberNode(BigInteger.TEN.pow(20))),
            NODES.objectNode().put("n", Double.NaN),
            NODES.objectNode().put("n", 1L << 54))) {
      assertThatThrownBy(() -> CanonicalJson.toText(bad)).isInstanceOf(InvalidValueException.class);
    }
  }

  @Test
  void digestIsSha256OfTheCanonicalBytes() {
    JsonNode node = parse("{ \"b\": 1, \"a\": [true] }");
    // printf '{"a":[true],"b":1}' | sha256sum
    String expected = "708747538ba81fd60b5aac8c646370de5e24abf70ab1872f67458a5a4f3af05d";

    assertThat(CanonicalJson.sha256Hex(node)).isEqualTo(expected);
    assertThat(CanonicalJson.digest(node).value()).isEqualTo("sha256:" + expected);
    assertThat(CanonicalJson.sha256Hex(NODES.objectNode()))
        .isEqualTo("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
  }

  // ---------------------------------------------------------------------------------- properties

  @Test
  void canonicalisationIsIdempotentThroughParsing() {
    qt().withExamples(1_000)
        .forAll(JsonTrees.trees())
        .checkAssert(
            tree -> {
              JsonNode parsed = StrictJson.parse(StrictJson.toCompactBytes(tree));
              byte[] first = CanonicalJson.toBytes(parsed);
              byte[] second = CanonicalJson.toBytes(JsonTrees.reparseCanonical(first));

              assertThat(new String(second, UTF_8)).isEqualTo(new String(first, UTF_8));
              assertThat(first).isEqualTo(CanonicalJson.toBytes(tree));
            });
  }

  @Test
  void canonicalisationIsInvariantUnderKeyOrder() {
    qt().withExamples(1_000)
        .forAll(JsonTrees.trees(), longs().all())
        .checkAssert(
            (tree, seed) ->
                assertThat(CanonicalJson.toText(JsonTrees.shuffled(tree, seed)))
                    .isEqualTo(CanonicalJson.toText(tree)));
  }
}
