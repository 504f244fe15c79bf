package io.loopx.runtime.internal.manifest;

import java.math.BigInteger;
import java.util.Optional;

/**
 * Lexical checks that night-config does not make, run over the decoded text before it is parsed
 * (package-private).
 *
 * <ul>
 *   <li>Integer literals outside the signed 64-bit range: TOML requires an error, but night-config
 *       silently wraps them ({@code 18446744073709551646} would read as {@code 30}).
 *   <li>Arrays and inline tables nested deeper than {@link #MAX_NESTING}, and keys with more than
 *       {@link #MAX_KEY_PARTS} dotted parts: night-config parses both recursively and would fail
 *       with a {@link StackOverflowError} instead of an exception.
 * </ul>
 *
 * <p>The scanner tracks strings, comments, keys and values just enough to find integer literals in
 * value position. It never throws on malformed input; whatever it does not flag is left to the
 * parser.
 */
final class TomlPreScan {
  /** The deepest allowed nesting of arrays and inline tables within one value. */
  static final int MAX_NESTING = 32;

  /** The most dotted parts allowed in one key or table header. */
  static final int MAX_KEY_PARTS = 32;

  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  /** More significant digits than this cannot be a 64-bit value in any TOML base. */
  private static final int MAX_SIGNIFICANT_DIGITS = 64;

  private final String text;
  private final char[] stack = new char[MAX_NESTING];
  private int depth;
  private boolean inKey = true;
  private int keyParts = 1;

  private TomlPreScan(String text) {
    this.text = text;
  }

  /** Returns the detail of the first problem found in {@code text}, or empty. */
  static Optional<String> check(String text) {
    return new TomlPreScan(text).run();
  }

  private Optional<String> run() {
    int n = text.length();
    int i = 0;
    while (i < n) {
      char c = text.charAt(i);
      if (c == '#') {
        i = skipComment(i);
      } else if (c == '"' || c == '\'') {
        i = skipString(i);
      } else if (c == '\n') {
        if (depth == 0) {
          startKey();
        }
        i++;
      } else if (inKey) {
        if (c == '.' && ++keyParts > MAX_KEY_PARTS) {
          return Optional.of("a key has more than " + MAX_KEY_PARTS + " dotted parts");
        }
        if (c == '=') {
          inKey = false;
        } else if (c == '}' && depth > 0 && stack[depth - 1] == '{') {
          depth--; // an empty inline table or a trailing separator
          inKey = false;
        }
        i++;
      } else if (c == '[' || c == '{') {
        if (depth == MAX_NESTING) {
          return Optional.of(
              "arrays and inline tables are nested deeper than " + MAX_NESTING + " levels");
        }
        stack[depth++] = c;
        if (c == '{') {
          startKey();
        }
        i++;
      } else if (c == ']' || c == '}') {
        if (depth > 0 && stack[depth - 1] == (c == ']' ? '[' : '{')) {
          depth--;
        }
        i++;
      } else if (c == ',') {
        if (depth > 0 && stack[depth - 1] == '{') {
          startKey();
        }
        i++;
      } else if (isTokenChar(c)) {
        int end = i;
        while (end < n && isTokenChar(text.charAt(end))) {
          end++;
        }
        Optional<String> problem = checkInteger(text.substring(i, end));
        if (problem.isPresent()) {
          return problem;
        }
        i = end;
      } else {
        i++;
      }
    }
    return Optional.empty();
  }

  private void startKey() {
    inKey = true;
    keyParts = 1;
  }

  private int skipComment(int from) {
    int end = text.indexOf('\n', from);
    return end < 0 ? text.length() : end;
  }

  /** Returns the index after the string starting at {@code from} (or at its line end if open). */
  private int skipString(int from) {
    char quote = text.charAt(from);
    boolean basic = quote == '"';
    int n = text.length();
    if (text.startsWith(basic ? "\"\"\"" : "'''", from)) {
      String close = basic ? "\"\"\"" : "'''";
      int i = from + 3;
      while (i < n) {
        char c = text.charAt(i);
        if (basic && c == '\\') {
          i += 2;
        } else if (text.startsWith(close, i)) {
          i += 3;
          // Up to two more quotes belong to the content: """a""""" ends with a quote.
          for (int extra = 0; extra < 2 && i < n && text.charAt(i) == quote; extra++) {
            i++;
          }
          return i;
        } else {
          i++;
        }
      }
      return n;
    }
    int i = from + 1;
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\n') {
        return i;
      }
      if (basic && c == '\\') {
        i += 2;
      } else if (c == quote) {
        return i + 1;
      } else {
        i++;
      }
    }
    return n;
  }

  private static boolean isTokenChar(char c) {
    return (c >= '0' && c <= '9')
        || (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || c == '_'
        || c == '+'
        || c == '-'
        || c == '.'
        || c == ':';
  }

  /** Flags an integer literal in value position whose value is outside the 64-bit range. */
  private static Optional<String> checkInteger(String token) {
    String t = token.replace("_", "");
    int radix = 10;
    String digits = t;
    if (t.startsWith("0x") || t.startsWith("0o") || t.startsWith("0b")) {
      radix = t.charAt(1) == 'x' ? 16 : t.charAt(1) == 'o' ? 8 : 2;
      digits = t.substring(2);
    } else if (t.startsWith("+") || t.startsWith("-")) {
      digits = t.substring(1);
    }
    if (digits.isEmpty()) {
      return Optional.empty();
    }
    for (int k = 0; k < digits.length(); k++) {
      if (Character.digit(digits.charAt(k), radix) < 0) {
        return Optional.empty(); // not an integer literal (a float, date, keyword or malformed)
      }
    }
    String significant = digits.replaceFirst("^0+", "");
    boolean outOfRange = significant.length() > MAX_SIGNIFICANT_DIGITS;
    if (!outOfRange) {
      BigInteger value = significant.isEmpty() ? BigInteger.ZERO : new BigInteger(digits, radix);
      if (t.startsWith("-")) {
        value = value.negate();
      }
      outOfRange = value.compareTo(LONG_MIN) < 0 || value.compareTo(LONG_MAX) > 0;
    }
    if (outOfRange) {
      String shown = token.length() > 40 ? token.substring(0, 40) + "…" : token;
      return Optional.of("integer " + shown + " is outside the 64-bit range");
    }
    return Optional.empty();
  }
}
