package io.loopx.api;

import static io.loopx.api.IdTesting.assertAccepted;
import static io.loopx.api.IdTesting.assertRejected;
import static io.loopx.api.IdTesting.between;
import static io.loopx.api.IdTesting.corrupted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import io.loopx.api.IdTesting.Corruption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;

class PermissionTest {
  private static final String WHAT = "permission";

  /** Code points allowed anywhere: ASCII graphics, Latin-1 letters, other scripts, astral. */
  private static final int[] INNER_POOL =
      "abcxyzABCXYZ019._:-/*#@ éöß€Ωжあ中😀𝄞🚀".codePoints().toArray();

  /** Control (Cc) and format (Cf) characters, including astral ones. */
  private static final int[] CC_CF = {
    0x00,
    0x07,
    0x09,
    0x0A,
    0x0D,
    0x1B,
    0x1F,
    0x7F,
    0x85,
    0x9F, // Cc
    0xAD,
    0x200B,
    0x200E,
    0x202E,
    0x2060,
    0xFEFF,
    0x110BD,
    0xE0001 // Cf
  };

  /** 1..128 code points, not starting or ending with whitespace. */
  private static final Gen<String> VALID =
      ((Gen<String>)
              in -> {
                int n = between(in, 1, Permission.MAX_CODE_POINTS);
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < n; i++) {
                  sb.appendCodePoint(INNER_POOL[between(in, 0, INNER_POOL.length - 1)]);
                }
                return sb.toString();
              })
          .assuming(s -> s.strip().equals(s));

  private static String codePoint(RandomnessSource in, int[] pool) {
    return new String(Character.toChars(pool[between(in, 0, pool.length - 1)]));
  }

  @Test
  void examplesAreAccepted() {
    for (String ok :
        List.of(
            "semantic_preference.read",
            "a",
            "files:write /tmp",
            "Ünïcödé ✓",
            "x".repeat(128),
            "😀".repeat(128))) {
      assertAccepted(Permission::of, ok);
    }
  }

  @Test
  void lengthCountsCodePointsNotChars() {
    String emoji = "😀".repeat(128);
    assertThat(emoji).hasSize(256);
    assertAccepted(Permission::of, emoji);
    assertRejected(Permission::of, WHAT, emoji + "😀");
    assertRejected(Permission::of, WHAT, "x".repeat(129));
  }

  @Test
  void breakingExamplesAreRejected() {
    for (String bad :
        List.of(
            "",
            " read",
            "read ",
            "\tread",
            "read\n",
            "re\u0000ad",
            "re\u200Bad",
            "re\u202Ead",
            "re\uFEFFad",
            "re\u007Fad",
            "re" + new String(Character.toChars(0xE0001)) + "ad")) {
      assertRejected(Permission::of, WHAT, bad);
    }
  }

  @Test
  void generatedValidValuesAreAccepted() {
    qt().forAll(VALID).checkAssert(s -> assertAccepted(Permission::of, s));
  }

  @Test
  void generatedCorruptionsAreRejected() {
    List<Corruption> corruptions =
        List.of(
            (in, s) -> insertAtCodePointBoundary(in, s, codePoint(in, CC_CF)), // a Cc or Cf
            (in, s) -> " " + s,
            (in, s) -> s + "\t",
            (in, s) -> s + "😀".repeat(129 - s.codePointCount(0, s.length()))); // 129 code points
    qt().forAll(corrupted(VALID, corruptions))
        .checkAssert(s -> assertRejected(Permission::of, WHAT, s));
  }

  /** Inserts {@code insert} between two code points of {@code s}, never inside a pair. */
  private static String insertAtCodePointBoundary(RandomnessSource in, String s, String insert) {
    int at = s.offsetByCodePoints(0, between(in, 0, s.codePointCount(0, s.length())));
    return s.substring(0, at) + insert + s.substring(at);
  }
}
