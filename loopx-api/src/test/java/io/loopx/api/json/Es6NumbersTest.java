package io.loopx.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.Es6Numbers;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

class Es6NumbersTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** RFC 8785 Appendix B: IEEE 754 bit pattern and the expected ES6 string, every finite row. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = ' ',
      value = {
        "0000000000000000 0",
        "8000000000000000 0",
        "0000000000000001 5e-324",
        "8000000000000001 -5e-324",
        "7fefffffffffffff 1.7976931348623157e+308",
        "ffefffffffffffff -1.7976931348623157e+308",
        "4340000000000000 9007199254740992",
        "c340000000000000 -9007199254740992",
        "4430000000000000 295147905179352830000",
        "44b52d02c7e14af5 9.999999999999997e+22",
        "44b52d02c7e14af6 1e+23",
        "44b52d02c7e14af7 1.0000000000000001e+23",
        "444b1ae4d6e2ef4e 999999999999999700000",
        "444b1ae4d6e2ef4f 999999999999999900000",
        "444b1ae4d6e2ef50 1e+21",
        "3eb0c6f7a0b5ed8c 9.999999999999997e-7",
        "3eb0c6f7a0b5ed8d 0.000001",
        "41b3de4355555553 333333333.3333332",
        "41b3de4355555554 333333333.33333325",
        "41b3de4355555555 333333333.3333333",
        "41b3de4355555556 333333333.3333334",
        "41b3de4355555557 333333333.33333343",
        "becbf647612f3696 -0.0000033333333333333333",
        "43143ff3c1cb0959 1424953923781206.2",
      })
  void rfc8785AppendixBVectors(String hexBits, String expected) {
    double d = Double.longBitsToDouble(Long.parseUnsignedLong(hexBits, 16));

    assertThat(Es6Numbers.format(d)).isEqualTo(expected);
    assertThat(Es6Numbers.format(NODES.numberNode(d))).isEqualTo(expected);
  }

  /** RFC 8785 Appendix B also lists NaN and Infinity: they have no JSON form. */
  @ParameterizedTest
  @ValueSource(strings = {"7fffffffffffffff", "7ff0000000000000", "fff0000000000000"})
  void rfc8785AppendixBNonFiniteRowsAreRejected(String hexBits) {
    double d = Double.longBitsToDouble(Long.parseUnsignedLong(hexBits, 16));

    assertThatThrownBy(() -> Es6Numbers.format(d))
        .isInstanceOfSatisfying(
            InvalidValueException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE);
              assertThat(e.what()).isEqualTo("canonical JSON number");
              assertThat(e.value()).isEqualTo(Double.toString(d));
            });
    assertThatThrownBy(() -> Es6Numbers.format(NODES.numberNode(d)))
        .isInstanceOf(InvalidValueException.class);
  }

  /** Values where JDK 17's Double.toString is not the ES6 answer, and the layout boundaries. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = ' ',
      value = {
        "1e-7 1e-7",
        "1.5e-7 1.5e-7",
        "0.000001 0.000001",
        "0.0000015 0.0000015",
        "2e23 2e+23",
        "1e21 1e+21",
        "1e20 100000000000000000000",
        "123e18 123000000000000000000",
        "1.5 1.5",
        "-1.5 -1.5",
        "100 100",
        "0.1 0.1",
        "5e-324 5e-324",
        "1e-323 1e-323",
        "8e-323 8e-323",
        "1e-322 1e-322",
        "2.2250738585072014e-308 2.2250738585072014e-308",
        "1e308 1e+308",
        "4.35 4.35",
        "0.3 0.3",
        "1.7976931348623157e308 1.7976931348623157e+308",
      })
  void es6FormsAndJdk17Differences(String input, String expected) {
    assertThat(Es6Numbers.format(Double.parseDouble(input))).isEqualTo(expected);
  }

  @Test
  void negativeZeroPrintsZero() {
    assertThat(Es6Numbers.format(-0.0)).isEqualTo("0");
    assertThat(Es6Numbers.format(NODES.numberNode(-0.0))).isEqualTo("0");
    assertThat(Es6Numbers.format(NODES.numberNode(new BigDecimal("-0.000")))).isEqualTo("0");
  }

  @Test
  void integralNodesWithinTwoToThe53PrintAsIntegers() {
    long max = 1L << 53;
    assertThat(Es6Numbers.format(NODES.numberNode(0))).isEqualTo("0");
    assertThat(Es6Numbers.format(NODES.numberNode(-17))).isEqualTo("-17");
    assertThat(Es6Numbers.format(NODES.numberNode(max))).isEqualTo("9007199254740992");
    assertThat(Es6Numbers.format(NODES.numberNode(-max))).isEqualTo("-9007199254740992");
    assertThat(Es6Numbers.format(NODES.numberNode(BigInteger.valueOf(max - 1))))
        .isEqualTo("9007199254740991");
    assertThat(Es6Numbers.format(NODES.numberNode((short) 7))).isEqualTo("7");
  }

  @Test
  void integralNodesBeyondTwoToThe53AreRejectedNamingTheValue() {
    long max = 1L << 53;
    for (JsonNode node :
        new JsonNode[] {
          NODES.numberNode(max + 1),
          NODES.numberNode(-max - 1),
          NODES.numberNode(Long.MIN_VALUE),
          NODES.numberNode(Long.MAX_VALUE),
          NODES.numberNode(new BigInteger("295147905179352830000")),
        }) {
      assertThatThrownBy(() -> Es6Numbers.format(node))
          .isInstanceOfSatisfying(
              InvalidValueException.class,
              e -> {
                assertThat(e.what()).isEqualTo("canonical JSON number");
                assertThat(e.value()).isEqualTo(node.toString());
                assertThat(e.getMessage()).contains("2^53");
              });
    }
  }

  @Test
  void decimalAndFloatNodesAreConvertedToTheNearestDouble() {
    assertThat(Es6Numbers.format(NODES.numberNode(new BigDecimal("4.50")))).isEqualTo("4.5");
    assertThat(Es6Numbers.format(NODES.numberNode(new BigDecimal("333333333.33333329"))))
        .isEqualTo("333333333.3333333");
    assertThat(Es6Numbers.format(NODES.numberNode(new BigDecimal("1E+30")))).isEqualTo("1e+30");
    assertThat(Es6Numbers.format(NODES.numberNode(new BigDecimal("1E-400")))).isEqualTo("0");
    assertThat(Es6Numbers.format(NODES.numberNode(new BigDecimal("1e20"))))
        .isEqualTo("100000000000000000000");
    assertThat(Es6Numbers.format(NODES.numberNode(0.1f))).isEqualTo("0.10000000149011612");
    assertThatThrownBy(() -> Es6Numbers.format(NODES.numberNode(new BigDecimal("1E+400"))))
        .isInstanceOfSatisfying(
            InvalidValueException.class, e -> assertThat(e.value()).isEqualTo("1E+400"));
  }

  @Test
  void nonNumberNodesAreRejected() {
    assertThatThrownBy(() -> Es6Numbers.format(NODES.stringNode("1")))
        .isInstanceOf(InvalidValueException.class);
  }
}
