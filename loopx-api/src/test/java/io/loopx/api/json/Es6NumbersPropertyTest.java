package io.loopx.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.loopx.api.internal.Es6Numbers;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Properties of the ES6 number form, checked with exact {@link BigDecimal} arithmetic: the string
 * parses back to the same double, no decimal with fewer significant digits does, and among the
 * decimals with as many digits it is the closest to the double.
 */
class Es6NumbersPropertyTest {

  /**
   * Finite doubles of every shape: raw bit patterns, subnormals (also the tiniest, where one digit
   * often suffices), ordinary magnitudes, integers.
   */
  static Gen<Double> finiteDoubles() {
    Gen<Double> bitPatterns = longs().all().map(Double::longBitsToDouble);
    Gen<Double> subnormals = longs().between(1, (1L << 52) - 1).map(Double::longBitsToDouble);
    Gen<Double> tiny = longs().between(1, 300).map(Double::longBitsToDouble);
    Gen<Double> ordinary =
        doubles().between(-1, 1).zip(integers().between(-30, 30), (d, e) -> d * Math.pow(10, e));
    Gen<Double> integers = longs().all().map(l -> (double) l);
    return Generate.oneOf(bitPatterns, subnormals, tiny, ordinary, integers, doubles().any())
        .assuming(Double::isFinite);
  }

  @Test
  void formatRoundTripsToTheSameDouble() {
    qt().withExamples(5_000)
        .forAll(finiteDoubles())
        .checkAssert(
            d ->
                assertThat(Double.parseDouble(Es6Numbers.format(d)))
                    .isEqualTo(d == 0 ? 0.0 : d)); // -0 prints 0
  }

  @Test
  void noShorterDecimalRoundTripsAndTheChosenOneIsTheClosest() {
    qt().withExamples(3_000)
        .forAll(finiteDoubles().assuming(d -> d != 0))
        .checkAssert(
            d -> {
              BigDecimal printed = new BigDecimal(Es6Numbers.format(d)).stripTrailingZeros();
              int digits = printed.precision();
              BigDecimal exact = new BigDecimal(d);
              if (digits > 1) {
                // Any shorter decimal that rounds to d would make one of these two round to d.
                for (BigDecimal shorter : neighbours(exact, digits - 1)) {
                  assertThat(shorter.doubleValue())
                      .as(
                          "%s has fewer digits than %s and must not round to %s",
                          shorter, printed, d)
                      .isNotEqualTo(d);
                }
              }
              BigDecimal distance = printed.subtract(exact).abs();
              for (BigDecimal same : neighbours(exact, digits)) {
                if (same.doubleValue() == d) {
                  assertThat(distance)
                      .as("%s is closer to %s than %s", same, d, printed)
                      .isLessThanOrEqualTo(same.subtract(exact).abs());
                }
              }
            });
  }

  @Test
  void integralDoublesBelowTwoToThe53PrintAsPlainIntegers() {
    qt().forAll(longs().between(-(1L << 53), 1L << 53))
        .checkAssert(l -> assertThat(Es6Numbers.format((double) l)).isEqualTo(Long.toString(l)));
  }

  /** The decimals with {@code digits} significant digits just below and just above {@code x}. */
  private static BigDecimal[] neighbours(BigDecimal x, int digits) {
    return new BigDecimal[] {
      x.round(new MathContext(digits, RoundingMode.FLOOR)),
      x.round(new MathContext(digits, RoundingMode.CEILING))
    };
  }
}
