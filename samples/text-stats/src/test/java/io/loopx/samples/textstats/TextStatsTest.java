package io.loopx.samples.textstats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quicktheories.core.Gen;

class TextStatsTest {

  private static void assertCounts(String text, long characters, long words, long lines) {
    assertThat(TextStats.of(text)).isEqualTo(new TextStats(characters, words, lines));
  }

  @Test
  void emptyTextHasNothing() {
    assertCounts("", 0, 0, 0);
  }

  @Test
  void asciiSentence() {
    assertCounts("Hello, LoopX world", 18, 3, 1);
  }

  @Test
  void cjkWithoutSpacesIsOneWordOfManyCharacters() {
    assertCounts("你好世界", 4, 1, 1);
    assertCounts("你好 世界", 5, 2, 1);
  }

  @Test
  void ideographicSpaceSeparatesWords() {
    assertCounts("你好\u3000世界", 5, 2, 1); // U+3000 is whitespace
  }

  @Test
  void emojiAreOneCharacterEach() {
    // U+1F30D and U+1F600 are surrogate pairs: 2 chars each in UTF-16, one code point each
    String text = "hi \ud83c\udf0d\ud83d\ude00";
    assertThat(text).hasSize(7);
    assertCounts(text, 5, 2, 1);
  }

  @Test
  void emojiWithJoinerSequenceCountsItsCodePoints() {
    // woman + ZWJ + laptop: three code points, no separator, one word
    assertCounts("\ud83d\udc69\u200d\ud83d\udcbb", 3, 1, 1);
  }

  @Test
  void noBreakSpacesSeparateWordsBecauseTheyAreSpaceChars() {
    // U+00A0, U+2007 and U+202F are not Character.isWhitespace, but are Character.isSpaceChar
    assertThat(Character.isWhitespace(0x00A0)).isFalse();
    assertThat(Character.isSpaceChar(0x00A0)).isTrue();
    assertCounts("a\u00a0b", 3, 2, 1);
    assertCounts("1\u20072\u202f3", 5, 3, 1);
  }

  @Test
  void controlWhitespaceThatIsNotASpaceCharSeparatesWords() {
    // U+001C..U+001F are Character.isWhitespace but not isSpaceChar
    assertThat(Character.isSpaceChar(0x001F)).isFalse();
    assertCounts("a\u001fb\tc", 5, 3, 1);
  }

  @Test
  void zeroWidthSpaceIsPartOfAWord() {
    // U+200B is a format character: neither whitespace nor a space char
    assertCounts("a\u200bb", 3, 1, 1);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "one                | one           | 1",
        "trailing LF        | 'a\nb\n'      | 2",
        "CRLF               | 'a\r\nb\r\n'  | 2",
        "lone CR            | 'a\rb'        | 2",
        "blank line         | 'a\n\nb'      | 3",
        "only LF            | '\n'          | 1",
        "two LF             | '\n\n'        | 2",
        "CR LF CR           | '\r\n\r'      | 2",
        "no final LF        | 'a\nb'        | 2",
      })
  void linesFollowStringLines(String name, String escaped, long lines) {
    String text = escaped.replace("\\n", "\n").replace("\\r", "\r");
    assertThat(TextStats.of(text).lines()).isEqualTo(lines);
  }

  @Test
  void crlfTextCountsCharactersWordsAndLines() {
    assertCounts("alpha beta\r\ngamma\r\n", 19, 3, 2);
  }

  @Test
  void lineSeparatorU2028IsAWordSeparatorButNotALineTerminator() {
    // String.lines() knows only \n, \r and \r\n; U+2028 is isWhitespace
    assertCounts("a\u2028b", 3, 2, 1);
  }

  @Test
  void onlySeparatorsHaveNoWords() {
    assertCounts(" \t\u00a0\u3000\n", 5, 0, 1);
  }

  @Test
  void resultObjectHasTheThreeCounts() {
    assertThat(TextStats.of("a b\nc").toJson().toString())
        .isEqualTo("{\"characters\":5,\"words\":3,\"lines\":2}");
  }

  @Test
  void negativeCountsAreRejected() {
    assertThatThrownBy(() -> new TextStats(-1, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
  }

  // ------------------------------------------------------------------------------------ properties

  /** Texts mixing ASCII letters, separators of every kind, CJK, emoji and line terminators. */
  private static Gen<String> texts() {
    List<String> pieces =
        List.of(
            "a",
            "Z",
            "9",
            "你",
            "界",
            "\ud83c\udf0d",
            "\u00e9",
            " ",
            "\t",
            "\n",
            "\r",
            "\r\n",
            "\u00a0",
            "\u2007",
            "\u202f",
            "\u3000",
            "\u2028",
            "\u001f",
            "\u200b",
            "\u0085");
    return lists()
        .of(integers().between(0, pieces.size() - 1))
        .ofSizeBetween(0, 30)
        .map(
            indexes -> {
              StringBuilder text = new StringBuilder();
              indexes.forEach(i -> text.append(pieces.get(i)));
              return text.toString();
            });
  }

  private static final Pattern WORD = Pattern.compile("[^\\p{javaWhitespace}\\p{javaSpaceChar}]+");

  @Test
  void wordsMatchAnIndependentRegexOracle() {
    qt().withExamples(1_000)
        .forAll(texts())
        .checkAssert(
            text -> {
              Matcher m = WORD.matcher(text);
              long expected = 0;
              while (m.find()) {
                expected++;
              }
              assertThat(TextStats.of(text).words()).as("words of %s", text).isEqualTo(expected);
            });
  }

  @Test
  void charactersAreCodePointsAndBoundTheWords() {
    qt().withExamples(1_000)
        .forAll(texts())
        .checkAssert(
            text -> {
              TextStats stats = TextStats.of(text);
              assertThat(stats.characters()).isEqualTo(text.codePoints().count());
              assertThat(stats.words()).isLessThanOrEqualTo(stats.characters());
              assertThat(stats.lines()).isLessThanOrEqualTo(stats.characters());
            });
  }

  @Test
  void piecesJoinedByLineTerminatorsAreLinesExceptAnEmptyLastOne() {
    qt().withExamples(500)
        .forAll(lists().of(texts()).ofSizeBetween(1, 6), integers().between(0, 2))
        .checkAssert(
            (texts, t) -> {
              List<String> pieces = texts.stream().map(p -> p.replaceAll("[\r\n]", "x")).toList();
              String terminator = List.of("\n", "\r", "\r\n").get(t);
              String text = String.join(terminator, pieces);
              long expected = pieces.size() - (pieces.get(pieces.size() - 1).isEmpty() ? 1 : 0);
              assertThat(TextStats.of(text).lines()).as("lines of %s", text).isEqualTo(expected);
            });
  }
}
