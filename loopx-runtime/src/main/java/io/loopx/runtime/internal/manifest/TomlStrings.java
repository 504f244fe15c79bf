package io.loopx.runtime.internal.manifest;

import org.jspecify.annotations.Nullable;

/**
 * The four TOML 1.0.0 string forms and their escapes, checked at a {@link TomlCursor}
 * (package-private): basic and literal strings on one line, multi-line basic and literal strings.
 * Only a key's value is built; a string value is checked and skipped (night-config reads it).
 */
final class TomlStrings {
  private TomlStrings() {}

  /**
   * A single-line basic string at {@code in}; returns its value if {@code build} (a key), else null
   * (a value, which only needs checking).
   */
  static @Nullable String basic(TomlCursor in, boolean build) {
    int start = in.pos;
    in.pos++;
    int from = in.pos;
    StringBuilder value = null;
    while (true) {
      if (in.pos >= in.n || in.text.charAt(in.pos) == '\n' || in.text.charAt(in.pos) == '\r') {
        throw in.problem(start, "unterminated string");
      }
      char c = in.text.charAt(in.pos);
      if (c == '"') {
        in.pos++;
        if (!build) {
          return null;
        }
        return value == null ? in.text.substring(from, in.pos - 1) : value.toString();
      }
      if (c == '\\') {
        if (build && value == null) {
          value = new StringBuilder().append(in.text, from, in.pos);
        }
        escape(in, value);
      } else {
        allowed(in, c);
        if (value != null) {
          value.append(c);
        }
        in.pos++;
      }
    }
  }

  /** A single-line literal string at {@code in}; returns its value if {@code build}, else null. */
  static @Nullable String literal(TomlCursor in, boolean build) {
    int start = in.pos;
    in.pos++;
    int from = in.pos;
    while (true) {
      if (in.pos >= in.n || in.text.charAt(in.pos) == '\n' || in.text.charAt(in.pos) == '\r') {
        throw in.problem(start, "unterminated string");
      }
      char c = in.text.charAt(in.pos);
      if (c == '\'') {
        in.pos++;
        return build ? in.text.substring(from, in.pos - 1) : null;
      }
      allowed(in, c);
      in.pos++;
    }
  }

  /** A multi-line string at {@code in}, delimited by three {@code quote}s. */
  static void multiLine(TomlCursor in, char quote) {
    int start = in.pos;
    in.pos += 3;
    in.newline(); // a line break right after the opening delimiter is trimmed
    while (true) {
      if (in.pos >= in.n) {
        throw in.problem(start, "unterminated multi-line string");
      }
      char c = in.text.charAt(in.pos);
      if (c == quote) {
        int run = 0;
        while (in.charAt(in.pos + run) == quote) {
          run++;
        }
        if (run >= 3) {
          if (run > 5) {
            throw in.problem(in.pos, "too many quotes at the end of a multi-line string");
          }
          in.pos += run;
          return;
        }
        in.pos += run;
      } else if (c == '\n' || c == '\r') {
        if (!in.newline()) {
          throw in.problem(in.pos, "a carriage return must be followed by a line feed");
        }
      } else if (c == '\\' && quote == '"') {
        lineEndingBackslashOrEscape(in);
      } else {
        allowed(in, c);
        in.pos++;
      }
    }
  }

  /** A backslash in a multi-line basic string: a line-ending backslash, else an escape. */
  private static void lineEndingBackslashOrEscape(TomlCursor in) {
    int after = in.pos + 1;
    while (in.charAt(after) == ' ' || in.charAt(after) == '\t') {
      after++;
    }
    char next = in.charAt(after);
    if (next == '\n' || (next == '\r' && in.charAt(after + 1) == '\n')) {
      in.pos = after;
      while (in.pos < in.n) {
        char w = in.text.charAt(in.pos);
        if (w == ' ' || w == '\t') {
          in.pos++;
        } else if (!in.newline()) {
          break;
        }
      }
    } else {
      escape(in, null);
    }
  }

  /** Checks an escape sequence; appends the character it stands for to {@code value}, if given. */
  private static void escape(TomlCursor in, @Nullable StringBuilder value) {
    int at = in.pos;
    char e = in.charAt(in.pos + 1);
    in.pos += 2;
    switch (e) {
      case 'b' -> append(value, '\b');
      case 't' -> append(value, '\t');
      case 'n' -> append(value, '\n');
      case 'f' -> append(value, '\f');
      case 'r' -> append(value, '\r');
      case '"' -> append(value, '"');
      case '\\' -> append(value, '\\');
      case 'u', 'U' -> {
        int count = e == 'u' ? 4 : 8;
        int code = 0;
        for (int i = 0; i < count; i++) {
          int d = Character.digit(in.charAt(in.pos), 16);
          if (d < 0 || in.charAt(in.pos) > 'f') {
            throw in.problem(at, "malformed unicode escape");
          }
          code = code * 16 + d;
          in.pos++;
        }
        if (code < 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
          throw in.problem(at, "escape \\" + e + " is not a Unicode scalar value");
        }
        if (value != null) {
          value.appendCodePoint(code);
        }
      }
      default -> throw in.problem(at, "invalid escape sequence");
    }
  }

  private static void append(@Nullable StringBuilder value, char c) {
    if (value != null) {
      value.append(c);
    }
  }

  /** Refuses control characters (other than tab) and DEL in strings. */
  private static void allowed(TomlCursor in, char c) {
    if ((c < 0x20 && c != '\t') || c == 0x7F) {
      throw in.problem(in.pos, String.format("control character U+%04X must be escaped", (int) c));
    }
  }
}
