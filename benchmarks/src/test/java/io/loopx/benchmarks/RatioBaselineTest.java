package io.loopx.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RatioBaselineTest {

  private static Map<String, Double> ratios(Object... keysAndRatios) {
    Map<String, Double> ratios = new LinkedHashMap<>();
    for (int i = 0; i < keysAndRatios.length; i += 2) {
      ratios.put((String) keysAndRatios[i], (Double) keysAndRatios[i + 1]);
    }
    return ratios;
  }

  @Test
  void aRatioMoreThan25PercentWorseIsFlaggedAndOneAtTheBoundIsNot() {
    Map<String, Double> baseline = ratios("A.baselineX", 2.0, "B.baselineY", 1.0);

    RatioBaseline.Comparison atBound =
        RatioBaseline.compare(baseline, ratios("A.baselineX", 2.5, "B.baselineY", 0.5));
    RatioBaseline.Comparison beyond =
        RatioBaseline.compare(baseline, ratios("A.baselineX", 2.0, "B.baselineY", 1.26));

    assertThat(atBound.flagged()).isFalse();
    assertThat(atBound.report()).contains("| A.baselineX | 2.000 | 2.500 | +25 % | ok |");
    assertThat(beyond.flagged()).isTrue();
    assertThat(beyond.report())
        .contains("| B.baselineY | 1.000 | 1.260 | +26 % | **REGRESSION** (> 25 % worse) |");
  }

  @Test
  void comparisonsMissingOnEitherSideAreListedNotFlagged() {
    RatioBaseline.Comparison comparison =
        RatioBaseline.compare(ratios("Old.baselineX", 1.0), ratios("New.baselineY", 9.0));

    assertThat(comparison.flagged()).isFalse();
    assertThat(comparison.report())
        .contains("| New.baselineY | — | 9.000 | — | no baseline |")
        .contains("| Old.baselineX | 1.000 | — | — | not run |");
  }

  @Test
  void aWrittenBaselineReadsBackAndAMalformedLineIsRefused() {
    Map<String, Double> measured = ratios("A.baselineX", 1.234, "W.baselineOneShot", 0.0005);

    String text = RatioBaseline.write("2026-12-07, quiet", measured);

    assertThat(text).startsWith("# 2026-12-07, quiet\n");
    assertThat(RatioBaseline.read(text)).isEqualTo(measured);
    assertThatThrownBy(() -> RatioBaseline.read("A.baselineX 1.2\n"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
