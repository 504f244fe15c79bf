package io.loopx.api.json;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import io.loopx.api.json.InvalidJsonException.Reason;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class StrictJsonTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(
      byte[] input, Reason reason) {
    return assertThatThrownBy(() -> StrictJson.parse(input))
        .isInstanceOfSatisfying(
            InvalidJsonException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(reason);
              assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE);
            });
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(
      String input, Reason reason) {
    return assertRejected(input.getBytes(UTF_8), reason);
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  // ------------------------------------------------------------------------------- one per reason

  @Test
  void emptyInputIsEmpty() {
    assertRejected(new byte[0], Reason.EMPTY).hasMessageContaining("empty");
  }

  @ParameterizedTest
  @ValueSource(strings = {" ", "\n", " \t\r\n  "})
  void whitespaceOnlyInputIsEmpty(String input) {
    assertRejected(input, Reason.EMPTY).hasMessageContaining("whitespace");
  }

  @Test
  void invalidUtf8IsRejectedBeforeParsingAndNamesTheOffset() {
    // A string whose second byte starts a truncated two-byte sequence.
    assertRejected(bytes('"', 0xC3, '"'), Reason.INVALID_UTF8).hasMessageContaining("offset 1");
    // An overlong encoding of NUL.
    assertRejected(bytes('"', 0xC0, 0x80, '"'), Reason.INVALID_UTF8);
    // A surrogate encoded directly in UTF-8 (CESU-8 style) is not UTF-8 either.
    assertRejected(bytes('"', 0xED, 0xA0, 0x80, '"'), Reason.INVALID_UTF8);
    // Beyond U+10FFFF.
    assertRejected(bytes('"', 0xF4, 0x90, 0x80, 0x80, '"'), Reason.INVALID_UTF8);
    // A lone continuation byte.
    assertRejected(bytes('[', 0x80, ']'), Reason.INVALID_UTF8);
  }

  @Test
  void utf16AndUtf32InputAreNotGuessed() {
    // With a byte order mark, or with non-ASCII text, they are not UTF-8.
    assertRejected("{\"a\":1}".getBytes(StandardCharsets.UTF_16), Reason.INVALID_UTF8);
    assertRejected("{\"é\":1}".getBytes(StandardCharsets.UTF_16LE), Reason.INVALID_UTF8);
    assertRejected("{\"é\":1}".getBytes(Charset.forName("UTF-32BE")), Reason.INVALID_UTF8);
    // ASCII text in UTF-16 is valid UTF-8 holding NULs, which JSON does not allow.
    assertRejected("{\"a\":1}".getBytes(StandardCharsets.UTF_16LE), Reason.MALFORMED);
    assertRejected("{\"a\":1}".getBytes(StandardCharsets.UTF_16BE), Reason.MALFORMED);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"a\":}",
        "[1,]",
        "{\"a\":1,}",
        "{'a':1}",
        "NaN",
        "[Infinity]",
        "01",
        "[+1]",
        "[.5]",
        "[1.]",
        "{\"a\":1 \"b\":2}",
        "/* comment */ {}",
        "{\"a\":1",
        "[",
        "\"unterminated",
        "\"tab\tinside\"",
        "\"bad escape \\x\"",
        "\"short escape \\u12\"",
        "{a:1}",
        "tru",
        "\ufeff{}",
        "\u00a0{}",
      })
  void nonJsonIsMalformed(String input) {
    assertRejected(input, Reason.MALFORMED).hasMessageStartingWith("JSON input");
  }

  @Test
  void exceedingTheNestingLimitIsMalformed() {
    String deep = "[".repeat(5_000) + "]".repeat(5_000);
    assertRejected(deep, Reason.MALFORMED).hasMessageContaining("nesting");
  }

  @Test
  void anOverlongNumberIsMalformed() {
    assertRejected("0." + "1".repeat(5_000), Reason.MALFORMED);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{} {}",
        "{}x",
        "1 2",
        "{}]",
        "\"a\" \"b\"",
        "[] ,",
        "null null",
        "{}\u0000",
        "{\"a\":1} // comment"
      })
  void dataAfterTheFirstValueIsTrailingData(String input) {
    assertRejected(input, Reason.TRAILING_DATA).hasMessageContaining("after the first value");
  }

  @Test
  void duplicateKeysAreRejectedNamingTheKey() {
    assertRejected("{\"a\":1,\"a\":2}", Reason.DUPLICATE_KEY).hasMessageContaining("`a`");
    assertRejected("{\"x\":[{\"b\":1,\"c\":2,\"b\":1}]}", Reason.DUPLICATE_KEY)
        .hasMessageContaining("`b`");
    // The same key spelled with an escape is the same key.
    assertRejected("{\"a\":1,\"\\u0061\":2}", Reason.DUPLICATE_KEY);
    // A duplicate after a malformed separator is still malformed, not a duplicate.
    assertRejected("{\"a\":1 \"a\":2}", Reason.MALFORMED);
  }

  @Test
  void equalKeysInDifferentObjectsAreFine() {
    JsonNode node =
        StrictJson.parse("{\"a\":{\"a\":1},\"b\":[{\"a\":2},{\"a\":3}]}".getBytes(UTF_8));
    assertThat(node.get("b").get(1).get("a").asInt()).isEqualTo(3);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"\\ud800\"",
        "\"\\udfff\"",
        "\"a\\ud83d\"",
        "\"\\ude00\\ud83d\"",
        "[\"ok\", \"\\ud800x\"]",
        "{\"\\udc00\":1}",
        "{\"k\":{\"\\ud83dz\":true}}",
      })
  void loneSurrogatesInStringsAndKeysAreRejected(String input) {
    assertRejected(input, Reason.LONE_SURROGATE).hasMessageContaining("lone surrogate");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "9007199254740993",
        "-9007199254740993",
        "[9223372036854775807]",
        "{\"n\":-9223372036854775808}",
        "{\"n\":100000000000000000000}",
        "295147905179352830000",
      })
  void integersBeyondTwoToThe53AreRejected(String input) {
    assertRejected(input, Reason.INTEGER_OUT_OF_RANGE).hasMessageContaining("2^53");
  }

  @ParameterizedTest
  @ValueSource(strings = {"[]", "1", "\"s\"", "null", "true", " [ {} ] "})
  void parseObjectRejectsOtherTopLevelValues(String input) {
    assertThatThrownBy(() -> StrictJson.parseObject(input.getBytes(UTF_8)))
        .isInstanceOfSatisfying(
            InvalidJsonException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.NOT_AN_OBJECT));
  }

  @Test
  void parseObjectReportsParseFailuresFirst() {
    assertThatThrownBy(() -> StrictJson.parseObject("[".getBytes(UTF_8)))
        .isInstanceOfSatisfying(
            InvalidJsonException.class, e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED));
  }

  @Test
  void everyReasonIsCoveredAbove() {
    assertThat(Reason.values())
        .containsExactlyInAnyOrder(
            Reason.EMPTY,
            Reason.INVALID_UTF8,
            Reason.MALFORMED,
            Reason.TRAILING_DATA,
            Reason.DUPLICATE_KEY,
            Reason.LONE_SURROGATE,
            Reason.INTEGER_OUT_OF_RANGE,
            Reason.NOT_AN_OBJECT);
  }

  // ----------------------------------------------------------------------------- valid edge cases

  @Test
  void whitespaceAroundTheValueIsAllowed() {
    ObjectNode node = StrictJson.parseObject(" \r\n\t{ \"a\" : [ 1 , 2 ] }\n\n ".getBytes(UTF_8));
    assertThat(node.toString()).isEqualTo("{\"a\":[1,2]}");
  }

  @Test
  void scalarsAreValidTopLevelValuesForParse() {
    assertThat(StrictJson.parse("true".getBytes(UTF_8)).booleanValue()).isTrue();
    assertThat(StrictJson.parse("null".getBytes(UTF_8)).isNull()).isTrue();
    assertThat(StrictJson.parse(" \"x\" ".getBytes(UTF_8)).asString()).isEqualTo("x");
    assertThat(StrictJson.parse("-0".getBytes(UTF_8)).isIntegralNumber()).isTrue();
  }

  @Test
  void unicodeRawAndEscapedIsTheSameText() {
    JsonNode raw = StrictJson.parse("{\"k€y\":\"😀 ö\"}".getBytes(UTF_8));
    JsonNode escaped =
        StrictJson.parse("{\"k\\u20acy\":\"\\ud83d\\ude00 \\u00f6\"}".getBytes(UTF_8));
    assertThat(raw).isEqualTo(escaped);
    assertThat(raw.get("k€y").asString()).isEqualTo("😀 ö");
  }

  @Test
  void nestedStructuresKeepKeyOrderAndTypes() {
    ObjectNode node =
        StrictJson.parseObject(
            "{\"z\":{\"y\":[true,false,null,{\"x\":[[],{}]}]},\"a\":\"\",\"m\":-12}"
                .getBytes(UTF_8));
    assertThat(node.propertyNames()).containsExactly("z", "a", "m");
    assertThat(node.get("z").get("y").get(3).get("x").get(1).isObject()).isTrue();
    assertThat(node.get("m").intValue()).isEqualTo(-12);
  }

  @Test
  void integerBoundariesAreAccepted() {
    assertThat(StrictJson.parse("9007199254740992".getBytes(UTF_8)).longValue())
        .isEqualTo(1L << 53);
    assertThat(StrictJson.parse("-9007199254740992".getBytes(UTF_8)).longValue())
        .isEqualTo(-(1L << 53));
  }

  @Test
  void fractionsAndExponentsKeepTheirWrittenValue() {
    JsonNode node =
        StrictJson.parse(
            "[4.50, 1e400, 1E-400, 1e20, -0.0, 8E0, 12345678901234567890e0]".getBytes(UTF_8));
    assertThat(node.get(0).decimalValue()).isEqualTo(new BigDecimal("4.50"));
    assertThat(node.get(1).decimalValue()).isEqualTo(new BigDecimal("1e400"));
    assertThat(new String(StrictJson.toCompactBytes(node), UTF_8))
        .isEqualTo("[4.50,1E+400,1E-400,1E+20,0.0,8.0,12345678901234567890.0]");
    assertThat(StrictJson.parse(StrictJson.toCompactBytes(node))).isEqualTo(node);
    // 1e400 parses but has no double value, so it cannot be canonicalised.
    assertThatThrownBy(() -> CanonicalJson.toText(node)).isInstanceOf(InvalidValueException.class);
  }

  // ------------------------------------------------------------------------------- toCompactBytes

  @Test
  void compactBytesKeepKeyOrderAndWriteUtf8WithoutWhitespace() {
    byte[] input =
        "{ \"b\" : 1 , \"a\" : [ \"€😀\" , { \"d\" : null , \"c\" : true } ] }".getBytes(UTF_8);

    byte[] compact = StrictJson.toCompactBytes(StrictJson.parse(input));

    assertThat(new String(compact, UTF_8))
        .isEqualTo("{\"b\":1,\"a\":[\"€😀\",{\"d\":null,\"c\":true}]}");
    assertThat(StrictJson.parse(compact)).isEqualTo(StrictJson.parse(input));
  }

  @Test
  void compactBytesEscapeWhatJsonRequires() {
    ObjectNode node = NODES.objectNode().put("q\"", "\\\n\u0001/");
    assertThat(new String(StrictJson.toCompactBytes(node), UTF_8))
        .isEqualTo("{\"q\\\"\":\"\\\\\\n\\u0001/\"}");
  }

  @Test
  void compactBytesRejectTreesWithoutAJsonForm() {
    for (JsonNode bad :
        List.<JsonNode>of(
            NODES.objectNode().put("k", "\ud800"),
            NODES.objectNode().put("\udc00", 1),
            NODES.arrayNode().add(Double.NaN),
            NODES.arrayNode().add(Double.POSITIVE_INFINITY),
            NODES.arrayNode().add(NODES.pojoNode(new Object())),
            NODES.missingNode())) {
      assertThatThrownBy(() -> StrictJson.toCompactBytes(bad))
          .isInstanceOfSatisfying(
              InvalidJsonException.class,
              e ->
                  assertThat(e.reason())
                      .isIn(Reason.LONE_SURROGATE, Reason.MALFORMED)
                      .isEqualTo(
                          bad.toString().contains("ud") || bad.isObject()
                              ? Reason.LONE_SURROGATE
                              : Reason.MALFORMED));
    }
  }
}
