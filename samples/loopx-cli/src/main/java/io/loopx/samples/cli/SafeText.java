package io.loopx.samples.cli;

import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.SerializedString;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps data the CLI did not author from driving a terminal (docs/contract/cli.md, "Output
 * formats"): the C0 and C1 control characters (U+0000–U+001F, U+007F–U+009F), the line and
 * paragraph separators U+2028 and U+2029 and the bidirectional controls (U+202A–U+202E,
 * U+2066–U+2069) are written as <code>&#92;uXXXX</code> with upper-case hex, in text and in JSON
 * alike. Escaping is idempotent: an escaped text has none of those characters left.
 */
final class SafeText {
  /** The mapper of every JSON object the CLI prints: the same characters escaped. */
  static final JsonMapper JSON =
      JsonMapper.builder(JsonFactory.builder().characterEscapes(new Escapes()).build()).build();

  private SafeText() {}

  /** Returns whether {@code codePoint} is written escaped. */
  static boolean isUnsafe(int codePoint) {
    return codePoint <= 0x1F
        || (codePoint >= 0x7F && codePoint <= 0x9F)
        || codePoint == 0x2028
        || codePoint == 0x2029
        || (codePoint >= 0x202A && codePoint <= 0x202E)
        || (codePoint >= 0x2066 && codePoint <= 0x2069);
  }

  /** Returns {@code text} with every unsafe character written as <code>&#92;uXXXX</code>. */
  static String escaped(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (isUnsafe(c)) {
        if (out == null) {
          out = new StringBuilder(text.length() + 8).append(text, 0, i);
        }
        out.append(escape(c));
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? text : out.toString();
  }

  private static String escape(int c) {
    return String.format(Locale.ROOT, "\\u%04X", c);
  }

  /**
   * Jackson escapes U+0000–U+001F (and {@code "}, {@code \}) by default; this adds U+007F, the C1
   * controls, U+2028, U+2029 and the bidirectional controls, as <code>&#92;uXXXX</code>.
   */
  private static final class Escapes extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    private static final int[] ASCII = ascii();

    private static int[] ascii() {
      int[] codes = CharacterEscapes.standardAsciiEscapesForJSON();
      codes[0x7F] = CharacterEscapes.ESCAPE_CUSTOM;
      return codes;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return ASCII.clone();
    }

    @Override
    public @Nullable SerializableString getEscapeSequence(int ch) {
      return isUnsafe(ch) ? new SerializedString(escape(ch)) : null;
    }
  }
}
