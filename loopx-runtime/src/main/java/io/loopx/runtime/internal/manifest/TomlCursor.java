package io.loopx.runtime.internal.manifest;

/**
 * A position in the text of a TOML document and the lexical rules every part of the {@link
 * TomlPreScan} shares (package-private): whitespace, comments and line breaks, and the problem
 * messages, which name the line and column (1-based, columns in code points) of an offset.
 */
final class TomlCursor {
  /** The first problem found; stops the check. */
  static final class Problem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String detail;

    Problem(String detail) {
      super(detail, null, false, false);
      this.detail = detail;
    }

    /** The problem as {@code line L, column C: detail}. */
    String detail() {
      return detail;
    }
  }

  final String text;
  final int n;
  int pos;

  TomlCursor(String text) {
    this.text = text;
    this.n = text.length();
  }

  // ---- whitespace, comments, line breaks -----------------------------------------------------

  void skipWs() {
    while (pos < n && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
      pos++;
    }
  }

  void skipWsCommentsNewlines() {
    while (true) {
      skipWs();
      if (peek() == '#') {
        comment();
      }
      if (pos >= n || !newline()) {
        return;
      }
    }
  }

  /** Skips a comment up to (not including) its line break. */
  void comment() {
    pos++;
    while (pos < n) {
      char c = text.charAt(pos);
      if (c == '\n' || (c == '\r' && charAt(pos + 1) == '\n')) {
        return;
      }
      if ((c < 0x20 && c != '\t') || c == 0x7F) {
        throw problem(pos, String.format("control character U+%04X in a comment", (int) c));
      }
      pos++;
    }
  }

  /** Consumes LF or CRLF; refuses a bare CR; false when there is no line break here. */
  boolean newline() {
    char c = peek();
    if (c == '\n') {
      pos++;
      return true;
    }
    if (c == '\r') {
      if (charAt(pos + 1) != '\n') {
        throw problem(pos, "a carriage return must be followed by a line feed");
      }
      pos += 2;
      return true;
    }
    return false;
  }

  // ---- characters ----------------------------------------------------------------------------

  char peek() {
    return charAt(pos);
  }

  char charAt(int i) {
    return i < n ? text.charAt(i) : '\0';
  }

  /** Whether the text continues with {@code prefix} at the current position. */
  boolean at(String prefix) {
    return text.startsWith(prefix, pos);
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static boolean isBareKeyChar(char c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_';
  }

  // ---- messages ------------------------------------------------------------------------------

  /** The bare token starting at {@code start}, shortened for messages. */
  String token(int start) {
    int end = start;
    while (end < n && end - start < 40) {
      char c = text.charAt(end);
      if (c <= ' ' || c == '#' || c == ',' || c == ']' || c == '}' || c > '~') {
        break;
      }
      end++;
    }
    String t = text.substring(start, end);
    return end < n && end - start == 40 && !Character.isWhitespace(text.charAt(end)) ? t + "…" : t;
  }

  String describe(int at) {
    if (at >= n) {
      return "the end of the file";
    }
    int c = text.codePointAt(at);
    if (c >= 0x21 && c <= 0x7E) {
      return "'" + (char) c + "'";
    }
    return String.format("U+%04X", c);
  }

  /** Returns the {@code {line, column}} of {@code at} (1-based, columns in code points). */
  int[] lineAndColumn(int at) {
    int line = 1;
    int lineStart = 0;
    int end = Math.min(at, n);
    for (int i = 0; i < end; i++) {
      if (text.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new int[] {line, text.codePointCount(lineStart, end) + 1};
  }

  Problem problem(int at, String detail) {
    int[] position = lineAndColumn(at);
    return new Problem("line " + position[0] + ", column " + position[1] + ": " + detail);
  }
}
