package io.loopx.samples.textstats;

import java.util.Objects;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The counts of one text (docs/contract/samples.md).
 *
 * @param characters the number of Unicode code points
 * @param words the number of maximal runs of code points for which neither {@link
 *     Character#isWhitespace(int)} nor {@link Character#isSpaceChar(int)} holds
 * @param lines {@link String#lines()}{@code .count()}: line terminators are {@code \n}, {@code \r}
 *     and {@code \r\n}; a final terminator does not start another line; the empty text has none
 */
public record TextStats(long characters, long words, long lines) {

  /** Rejects negative counts. */
  public TextStats {
    if (characters < 0 || words < 0 || lines < 0) {
      throw new IllegalArgumentException(
          "counts must not be negative: " + characters + ", " + words + ", " + lines);
    }
  }

  /** Counts {@code text}. An unpaired surrogate counts as one code point. */
  public static TextStats of(String text) {
    Objects.requireNonNull(text, "text");
    long words = 0;
    boolean inWord = false;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      boolean separator = Character.isWhitespace(cp) || Character.isSpaceChar(cp);
      if (!separator && !inWord) {
        words++;
      }
      inWord = !separator;
    }
    return new TextStats(text.codePointCount(0, text.length()), words, text.lines().count());
  }

  /** Returns the {@code result} object of the response: {@code {characters, words, lines}}. */
  public ObjectNode toJson() {
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    result.put("characters", characters);
    result.put("words", words);
    result.put("lines", lines);
    return result;
  }
}
