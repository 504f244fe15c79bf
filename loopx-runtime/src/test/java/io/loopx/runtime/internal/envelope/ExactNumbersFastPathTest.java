package io.loopx.runtime.internal.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import io.loopx.api.json.CanonicalJson;
import io.loopx.api.json.StrictJson;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.impl.Constraint;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The number rule as the binder applies it during its one walk ({@link ExactNumbers#isExact})
 * against the rule as first written: the value Jackson writes for the node, as a {@link
 * BigDecimal}, has at most 15 digits within ±300 or equals the ES6 form of the nearest double.
 */
class ExactNumbersFastPathTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final double[] EDGES = {
    0.0,
    -0.0,
    Double.MIN_VALUE,
    Double.MIN_NORMAL,
    Math.nextDown(Double.MIN_NORMAL),
    Double.MAX_VALUE,
    9007199254740992.0,
    Math.nextUp(9007199254740992.0),
    1e21,
    Math.nextDown(1e21),
    1e-7,
    2e23,
    1e23,
    0.1,
    5e-324
  };

  private static Gen<Double> doubles() {
    return in ->
        switch ((int) in.next(Constraint.between(0, 3))) {
          case 0 -> EDGES[(int) in.next(Constraint.between(0, EDGES.length - 1))];
          case 1 -> {
            double p = Math.pow(10, in.next(Constraint.between(-323, 308)));
            yield in.next(Constraint.between(0, 1)) == 0 ? Math.nextUp(p) : p;
          }
          case 2 -> in.next(Constraint.between(-10_000_000, 10_000_000)) / 7.0;
          default -> {
            double d = Double.longBitsToDouble(in.next(Constraint.none()));
            yield Double.isFinite(d) ? d : 1.5;
          }
        };
  }

  /** The rule as first written, with the value Jackson actually writes. */
  private static boolean original(JsonNode number) {
    BigDecimal sent =
        number.isBigDecimal()
            ? number.decimalValue()
            : new BigDecimal(
                new String(StrictJson.toCompactBytes(number), StandardCharsets.US_ASCII));
    return ExactNumbers.alwaysExact(sent)
        || new BigDecimal(CanonicalJson.toText(number)).compareTo(sent) == 0;
  }

  @Test
  void doubleAndFloatNodesAreDecidedAsJacksonWritesThem() {
    qt().withExamples(20_000)
        .forAll(doubles())
        .checkAssert(
            d -> {
              JsonNode dn = NODES.numberNode(d);
              // The binder's reading of what Jackson writes for a double node.
              assertThat(new String(StrictJson.toCompactBytes(dn), StandardCharsets.US_ASCII))
                  .isEqualTo(Double.toString(d));
              assertThat(ExactNumbers.isExact(dn, CanonicalJson.toText(dn)))
                  .isEqualTo(original(dn));
              float f = (float) d.doubleValue();
              if (Float.isFinite(f)) {
                JsonNode fn = NODES.numberNode(f);
                assertThat(new String(StrictJson.toCompactBytes(fn), StandardCharsets.US_ASCII))
                    .isEqualTo(Float.toString(f));
                assertThat(ExactNumbers.isExact(fn, CanonicalJson.toText(fn)))
                    .isEqualTo(original(fn));
              }
              JsonNode decimal = NODES.numberNode(new BigDecimal(Double.toString(d)));
              assertThat(ExactNumbers.isExact(decimal, CanonicalJson.toText(decimal)))
                  .isEqualTo(original(decimal));
            });
  }

  @Test
  void theJdkSpellingOf2e23IsNotItsEs6Form() {
    JsonNode n = NODES.numberNode(2e23);
    assertThat(ExactNumbers.isExact(n, CanonicalJson.toText(n))).isFalse();
    assertThat(original(n)).isFalse();
  }

  @Test
  void sameValueComparesLiteralsAsBigDecimalDoes() {
    String[] parts = {"0", "00", "1", "10", "100", "12345678901234567", "9", "5", "05", "50"};
    Gen<String> literals =
        in -> {
          StringBuilder s = new StringBuilder();
          if (in.next(Constraint.between(0, 1)) == 1) {
            s.append('-');
          }
          s.append(parts[(int) in.next(Constraint.between(0, parts.length - 1))]);
          if (in.next(Constraint.between(0, 1)) == 1) {
            s.append('.').append(parts[(int) in.next(Constraint.between(0, parts.length - 1))]);
          }
          long e = in.next(Constraint.between(-3, 3));
          if (e != 0 || in.next(Constraint.between(0, 1)) == 1) {
            s.append(in.next(Constraint.between(0, 1)) == 1 ? 'E' : 'e');
            s.append(e >= 0 && in.next(Constraint.between(0, 1)) == 1 ? "+" : "").append(e);
          }
          return s.toString();
        };
    qt().withExamples(20_000)
        .forAll(literals, literals)
        .checkAssert(
            (a, b) ->
                assertThat(ExactNumbers.sameValue(a, b))
                    .as("%s vs %s", a, b)
                    .isEqualTo(new BigDecimal(a).compareTo(new BigDecimal(b)) == 0));
  }
}
