package io.loopx.api;

import static io.loopx.api.IdTesting.DIGITS;
import static io.loopx.api.IdTesting.assertAccepted;
import static io.loopx.api.IdTesting.assertRejected;
import static io.loopx.api.IdTesting.corrupted;
import static io.loopx.api.IdTesting.insert;
import static io.loopx.api.IdTesting.pick;
import static io.loopx.api.IdTesting.separated;
import static org.quicktheories.QuickTheory.qt;

import io.loopx.api.IdTesting.Corruption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

class KindTokenTest {
  private static final String WHAT = "kind token";
  private static final Gen<String> VALID = separated('_', 200);

  @Test
  void lowerSnakeExamplesAreAccepted() {
    for (String ok :
        List.of("a", "projection_sink", "semantic_preference", "a1_b2", "x".repeat(300))) {
      assertAccepted(KindToken::of, ok);
    }
  }

  @Test
  void breakingExamplesAreRejected() {
    for (String bad :
        List.of(
            "",
            "Sink",
            "projection-sink",
            "a/b",
            "a..b",
            "a.b",
            "1sink",
            "_sink",
            "sink_",
            "projection__sink",
            " sink")) {
      assertRejected(KindToken::of, WHAT, bad);
    }
  }

  @Test
  void generatedValidValuesAreAccepted() {
    qt().forAll(VALID).checkAssert(s -> assertAccepted(KindToken::of, s));
  }

  @Test
  void generatedCorruptionsAreRejected() {
    List<Corruption> corruptions =
        List.of(
            IdTesting::upperOneLetter,
            (in, s) -> insert(in, s, "-"),
            (in, s) -> insert(in, s, "/"),
            (in, s) -> insert(in, s, ".."),
            (in, s) -> pick(in, DIGITS) + s,
            (in, s) -> "_" + s,
            (in, s) -> s + "_",
            (in, s) -> insert(in, s, "__"));
    qt().forAll(corrupted(VALID, corruptions))
        .checkAssert(s -> assertRejected(KindToken::of, WHAT, s));
  }
}
