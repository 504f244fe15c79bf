package io.loopx.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;

/**
 * The hand-written grammar scanners accept exactly what the docs/contract/grammars.md regexes
 * accept.
 */
class GrammarScannerTest {
  private static final Pattern KEBAB = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
  private static final Pattern SNAKE = Pattern.compile("[a-z][a-z0-9]*(_[a-z0-9]+)*");
  private static final Pattern PROTOCOL = Pattern.compile("[a-z][a-z0-9_]{0,63}_v[0-9]+");

  /** Strings over the characters that matter to the three grammars, biased to near-misses. */
  private static Gen<String> strings(int maxLength) {
    String alphabet = "ab9v0_-_vZ.";
    return SourceDSL.lists()
        .of(SourceDSL.integers().between(0, alphabet.length() - 1))
        .ofSizeBetween(0, maxLength)
        .map(
            indexes -> {
              StringBuilder b = new StringBuilder();
              indexes.forEach(i -> b.append(alphabet.charAt(i)));
              return b.toString();
            });
  }

  @Test
  void lowerSeparatedMatchesTheRegexes() {
    qt().withExamples(20_000)
        .forAll(strings(12))
        .checkAssert(
            s -> {
              assertThat(Grammar.isLowerSeparated(s, '-'))
                  .as("kebab %s", s)
                  .isEqualTo(KEBAB.matcher(s).matches());
              assertThat(Grammar.isLowerSeparated(s, '_'))
                  .as("snake %s", s)
                  .isEqualTo(SNAKE.matcher(s).matches());
            });
  }

  @Test
  void protocolTokenMatchesTheRegex() {
    qt().withExamples(20_000)
        .forAll(strings(12))
        .checkAssert(
            s ->
                assertThat(Grammar.isProtocolToken(s))
                    .as("protocol %s", s)
                    .isEqualTo(PROTOCOL.matcher(s).matches()));
  }

  @Test
  void protocolTokenBoundariesMatchTheRegex() {
    for (String s :
        List.of(
            "a_v0",
            "a_v",
            "_v1",
            "av1",
            "a_v1_v2",
            "a_vv1",
            "a".repeat(64) + "_v1",
            "a".repeat(65) + "_v1",
            "a_" + "b".repeat(62) + "_v12",
            "semantic_preference_provider_v0",
            "a_v1a",
            "a__v1")) {
      assertThat(Grammar.isProtocolToken(s))
          .as("protocol %s", s)
          .isEqualTo(PROTOCOL.matcher(s).matches());
    }
  }
}
