package io.loopx.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The hand-written grammar checks agree with the regular expressions they replace. */
class GrammarTest {
  private static final Pattern REVISION = Pattern.compile("[0-9a-f]{16}");
  private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");
  private static final char[] ALPHABET = {
    'a', 'f', 'g', 'z', '0', '9', '-', '_', 'A', 'F', ':', 's', 'h', '2', '5', '6', '`', '{', '/',
    '\u00e9', '\u0660'
  };

  private static String word(List<Integer> picks) {
    StringBuilder s = new StringBuilder();
    picks.forEach(p -> s.append(ALPHABET[p]));
    return s.toString();
  }

  @Test
  void lowerKebabAgreesWithItsRegex() {
    qt().withExamples(5_000)
        .forAll(lists().of(integers().between(0, ALPHABET.length - 1)).ofSizeBetween(0, 8))
        .checkAssert(
            picks -> {
              String s = word(picks);
              assertThat(Grammar.isLowerSeparated(s, '-'))
                  .as(s)
                  .isEqualTo(Grammar.LOWER_KEBAB.matcher(s).matches());
            });
    for (String s : List.of("a", "a-b", "a1-2b-c3", "", "-a", "a-", "a--b", "1a", "aB", "é")) {
      assertThat(Grammar.isLowerSeparated(s, '-'))
          .as(s)
          .isEqualTo(Grammar.LOWER_KEBAB.matcher(s).matches());
    }
  }

  @Test
  void lowerHexAgreesWithTheRevisionAndDigestRegexes() {
    qt().withExamples(5_000)
        .forAll(
            lists().of(integers().between(0, ALPHABET.length - 1)).ofSizeBetween(0, 3),
            integers().between(0, 20))
        .checkAssert(
            (picks, at) -> {
              String hex = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
              for (String base : List.of(hex.substring(0, 16), "sha256:" + hex)) {
                String s =
                    base.substring(0, Math.min(at, base.length()))
                        + word(picks)
                        + base.substring(Math.min(at + picks.size(), base.length()));
                assertThat(catchThrowable(() -> Revision.of(s)) == null)
                    .as(s)
                    .isEqualTo(REVISION.matcher(s).matches());
                assertThat(catchThrowable(() -> Digest.of(s)) == null)
                    .as(s)
                    .isEqualTo(DIGEST.matcher(s).matches());
              }
            });
  }
}
