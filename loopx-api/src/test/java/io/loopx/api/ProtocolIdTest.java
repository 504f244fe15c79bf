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

class ProtocolIdTest {
  private static final String WHAT = "protocol token";

  /** {@code [a-z][a-z0-9_]{0,63}_v[0-9]+}. */
  private static final Gen<String> VALID =
      in -> pick(in, LOWER) + chars(in, ALNUM + "_", 0, 63) + "_v" + chars(in, DIGITS, 1, 4);

  @Test
  void examplesAreAccepted() {
    for (String ok :
        List.of(
            "semantic_preference_provider_v0",
            "golden_example_v0",
            "a_v1",
            "loopx_extension_manifest_v0",
            "a__b_v12",
            "a" + "b".repeat(63) + "_v0")) {
      assertAccepted(ProtocolId::of, ok);
    }
  }

  @Test
  void breakingExamplesAreRejected() {
    for (String bad :
        List.of(
            "",
            "semantic_preference_provider",
            "semantic_preference_provider_v",
            "Semantic_v0",
            "semantic-preference_v0",
            "semantic/preference_v0",
            "a..b_v0",
            "0abc_v0",
            "_abc_v0",
            "abc_V0",
            "abc_v0 ",
            "a" + "b".repeat(64) + "_v0")) {
      assertRejected(ProtocolId::of, WHAT, bad);
    }
  }

  @Test
  void generatedValidValuesAreAccepted() {
    qt().forAll(VALID).checkAssert(s -> assertAccepted(ProtocolId::of, s));
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
            // no version suffix (a generated prefix may itself contain `_v1`, so never end in
            // `_v<digits>`)
            (in, s) -> s.substring(0, s.lastIndexOf("_v")) + "_x",
            (in, s) -> s + "_",
            (in, s) -> "a".repeat(65) + s); // prefix over 64 characters
    qt().forAll(corrupted(VALID, corruptions))
        .checkAssert(s -> assertRejected(ProtocolId::of, WHAT, s));
  }
}
