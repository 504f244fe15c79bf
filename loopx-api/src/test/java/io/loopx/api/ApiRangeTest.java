package io.loopx.api;

import static io.loopx.api.IdTesting.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

class ApiRangeTest {
  private static final String WHAT = "requires_loopx_api range";

  @ParameterizedTest
  @ValueSource(strings = {">=1, <2", "1", "==1", ">=1,<2", " >= 1 , < 2 ", "<=1", ">0", "< 2"})
  void validRangesThatAdmitTheCurrentVersion(String text) {
    ApiRange range = ApiRange.parse(text);

    assertThat(range.admitsCurrent()).isTrue();
    assertThat(range.admits(ApiRange.CURRENT_API_VERSION)).isTrue();
    assertThat(range.toString()).isEqualTo(text);
  }

  @Test
  void aValidRangeThatExcludesTheCurrentVersionStillParses() {
    ApiRange range = ApiRange.parse(">=2,<3");

    assertThat(range.admits(1)).isFalse();
    assertThat(range.admitsCurrent()).isFalse();
    assertThat(range.admits(2)).isTrue();
    assertThat(range.admits(3)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "", " ", ",", "1,", ",1", "1,,2", "~1", ">= ", ">=", "=1", "=>1", "!=1", "1.0", "-1", "v1",
        "abc", ">=1 <2", "^1", "1 2", ">=1;<2", "１"
      })
  void invalidRangesAreRejectedNamingTheText(String text) {
    assertRejected(ApiRange::parse, WHAT, text);
  }

  @Test
  void leadingZerosAndHugeBoundsKeepTheirNumericMeaning() {
    assertThat(ApiRange.parse("==01").admits(1)).isTrue();
    assertThat(ApiRange.parse("==0000000000001").admits(1)).isTrue();
    assertThat(ApiRange.parse("<99999999999999999999").admits(1)).isTrue();
    assertThat(ApiRange.parse(">99999999999999999999").admits(1)).isFalse();
    assertThat(ApiRange.parse("==99999999999999999999").admits(Integer.MAX_VALUE)).isFalse();
  }

  @Test
  void everyClauseMustHold() {
    Gen<String> ops = Generate.pick(List.of(">=", "<=", "==", ">", "<", ""));
    Gen<Integer> bounds = integers().between(0, 5);
    qt().forAll(ops, bounds, ops, bounds)
        .checkAssert(
            (op1, b1, op2, b2) -> {
              ApiRange range = ApiRange.parse(op1 + b1 + ", " + op2 + b2);
              for (int v = -1; v <= 6; v++) {
                assertThat(range.admits(v))
                    .as("%s admits %d", range, v)
                    .isEqualTo(holds(op1, b1, v) && holds(op2, b2, v));
              }
            });
  }

  @Test
  void equalityIsByText() {
    assertThat(ApiRange.parse(">=1"))
        .isEqualTo(ApiRange.parse(">=1"))
        .hasSameHashCodeAs(ApiRange.parse(">=1"));
    assertThat(ApiRange.parse(">=1")).isNotEqualTo(ApiRange.parse(">= 1"));
  }

  private static boolean holds(String op, int bound, int v) {
    return switch (op) {
      case ">=" -> v >= bound;
      case "<=" -> v <= bound;
      case ">" -> v > bound;
      case "<" -> v < bound;
      default -> v == bound;
    };
  }
}
