package io.loopx.api;

import static io.loopx.api.IdTesting.ALNUM;
import static io.loopx.api.IdTesting.DIGITS;
import static io.loopx.api.IdTesting.LOWER;
import static io.loopx.api.IdTesting.assertAccepted;
import static io.loopx.api.IdTesting.assertRejected;
import static io.loopx.api.IdTesting.chars;
import static io.loopx.api.IdTesting.corrupted;
import static io.loopx.api.IdTesting.insert;
import static io.loopx.api.IdTesting.pick;
import static org.quicktheories.QuickTheory.qt;

import io.loopx.api.IdTesting.Corruption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

class ActionTokenTest {
  private static final String WHAT = "action token";

  /** {@code [a-z][a-z0-9_.:-]{0,127}}. */
  private static final Gen<String> VALID =
      in -> pick(in, LOWER) + chars(in, ALNUM + "_.:-", 0, 127);

  @Test
  void examplesAreAccepted() {
    for (String ok :
        List.of(
            "semantic_preference.recall",
            "a",
            "run:text-stats",
            "a..b",
            "a-",
            "x" + "y".repeat(127))) {
      assertAccepted(ActionToken::of, ok);
    }
  }

  @Test
  void breakingExamplesAreRejected() {
    for (String bad :
        List.of("", "Run", "1run", ".run", "-run", "run/all", "run all", "x" + "y".repeat(128))) {
      assertRejected(ActionToken::of, WHAT, bad);
    }
  }

  @Test
  void generatedValidValuesAreAccepted() {
    qt().forAll(VALID).checkAssert(s -> assertAccepted(ActionToken::of, s));
  }

  @Test
  void generatedCorruptionsAreRejected() {
    List<Corruption> corruptions =
        List.of(
            IdTesting::upperOneLetter,
            (in, s) -> insert(in, s, "/"),
            (in, s) -> insert(in, s, " "),
            (in, s) -> pick(in, DIGITS) + s,
            (in, s) -> "_" + s,
            (in, s) -> s + "a".repeat(129 - s.length())); // over-length
    qt().forAll(corrupted(VALID, corruptions))
        .checkAssert(s -> assertRejected(ActionToken::of, WHAT, s));
  }
}
