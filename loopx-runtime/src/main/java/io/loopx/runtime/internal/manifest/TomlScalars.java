package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.TomlCursor.isDigit;

import java.util.ArrayList;
import java.util.List;

/**
 * The bare TOML 1.0.0 values, checked at a {@link TomlCursor} (package-private): integers in the
 * four bases, floats (also {@code inf} and {@code nan}) and the four datetime forms with their
 * ranges. Beyond TOML it refuses integers outside the signed 64-bit range and leap seconds, and
 * notes each hexadecimal, octal and binary integer literal so that {@link #normalized()} writes it
 * in decimal: night-config misreads a hexadecimal literal whose last digit is {@code e} or {@code
 * E} ({@code 0xE}, {@code 0x1e}) as a malformed exponent.
 */
final class TomlScalars {
  /** A literal to replace in the normalised text. */
  private record Rewrite(int start, int end, String replacement) {}

  private final List<Rewrite> rewrites = new ArrayList<>();
  private final TomlCursor in;

  TomlScalars(TomlCursor in) {
    this.in = in;
  }

  /** The checked text with its non-decimal integer literals written in decimal. */
  String normalized() {
    if (rewrites.isEmpty()) {
      return in.text;
    }
    StringBuilder out = new StringBuilder(in.n);
    int from = 0;
    for (Rewrite r : rewrites) {
      out.append(in.text, from, r.start()).append(r.replacement());
      from = r.end();
    }
    return out.append(in.text, from, in.n).toString();
  }

  /** A number or a datetime: integer, float, inf/nan or one of the four datetime forms. */
  void scalar() {
    int start = in.pos;
    if (isDigit(in.charAt(start)) && isDigit(in.charAt(start + 1))) {
      if (in.charAt(start + 2) == ':') {
        partialTime(start);
        endOfScalar(start);
        return;
      }
      if (isDigit(in.charAt(start + 2))
          && isDigit(in.charAt(start + 3))
          && in.charAt(start + 4) == '-') {
        dateTime(start);
        return;
      }
    }
    number(start);
  }

  private void number(int start) {
    char c = in.peek();
    boolean signed = c == '+' || c == '-';
    if (signed) {
      in.pos++;
    }
    if (in.at("inf") || in.at("nan")) {
      in.pos += 3;
      endOfScalar(start);
      return;
    }
    if (!signed && in.charAt(in.pos) == '0' && "xob".indexOf(in.charAt(in.pos + 1)) >= 0) {
      char base = in.charAt(in.pos + 1);
      int radix = base == 'x' ? 16 : base == 'o' ? 8 : 2;
      in.pos += 2;
      int digitsStart = in.pos;
      digits(radix, start);
      endOfScalar(start);
      long value = checkRange(start, in.text.substring(digitsStart, in.pos), radix, false);
      rewrites.add(new Rewrite(start, in.pos, Long.toString(value)));
      return;
    }
    if (!isDigit(in.peek())) {
      throw in.problem(start, "malformed number " + in.token(start));
    }
    int intStart = in.pos;
    digits(10, start);
    String intPart = in.text.substring(intStart, in.pos);
    if (intPart.length() > 1 && intPart.charAt(0) == '0') {
      throw in.problem(start, "a number cannot have a leading zero: " + in.token(start));
    }
    boolean isFloat = false;
    if (in.peek() == '.') {
      in.pos++;
      if (!isDigit(in.peek())) {
        throw in.problem(start, "malformed float " + in.token(start));
      }
      digits(10, start);
      isFloat = true;
    }
    if (in.peek() == 'e' || in.peek() == 'E') {
      in.pos++;
      if (in.peek() == '+' || in.peek() == '-') {
        in.pos++;
      }
      if (!isDigit(in.peek())) {
        throw in.problem(start, "malformed float " + in.token(start));
      }
      digits(10, start);
      isFloat = true;
    }
    endOfScalar(start);
    if (!isFloat) {
      checkRange(start, intPart, 10, in.text.charAt(start) == '-');
    }
  }

  /** Digits of {@code radix} with single underscores between digits; at least one digit. */
  private void digits(int radix, int start) {
    if (Character.digit(in.peek(), radix) < 0 || in.peek() > 'z') {
      throw in.problem(start, "malformed number " + in.token(start));
    }
    while (in.pos < in.n) {
      char c = in.text.charAt(in.pos);
      if (c == '_') {
        char next = in.charAt(in.pos + 1);
        if (Character.digit(next, radix) < 0 || next > 'z') {
          throw in.problem(
              start, "an underscore must stand between two digits: " + in.token(start));
        }
        in.pos++;
      } else if (c <= 'z' && Character.digit(c, radix) >= 0) {
        in.pos++;
      } else {
        return;
      }
    }
  }

  /** Returns the value of an integer literal's digits; refuses one outside the 64-bit range. */
  private long checkRange(int start, String digits, int radix, boolean negative) {
    String plain = digits.indexOf('_') < 0 ? digits : digits.replace("_", "");
    try {
      return Long.parseLong(negative ? "-" + plain : plain, radix);
    } catch (NumberFormatException e) {
      throw in.problem(start, "integer " + in.token(start) + " is outside the 64-bit range");
    }
  }

  /** A scalar must be followed by whitespace, a comment, a line break, a separator or the end. */
  private void endOfScalar(int start) {
    if (in.pos < in.n && " \t\r\n#,]}".indexOf(in.text.charAt(in.pos)) < 0) {
      char c = in.text.charAt(in.pos);
      if (c < 0x20 || c == 0x7F) {
        throw in.problem(in.pos, "unexpected " + in.describe(in.pos) + " after " + in.token(start));
      }
      throw in.problem(start, "malformed value " + in.token(start));
    }
  }

  private void dateTime(int start) {
    int year = fixed(4, start);
    expect('-', start);
    int month = fixed(2, start);
    expect('-', start);
    int day = fixed(2, start);
    if (month < 1 || month > 12) {
      throw in.problem(start, "month out of range in " + in.token(start));
    }
    if (day < 1 || day > daysIn(year, month)) {
      throw in.problem(start, "day out of range in " + in.token(start));
    }
    char c = in.peek();
    boolean withTime =
        c == 'T'
            || c == 't'
            || (c == ' '
                && isDigit(in.charAt(in.pos + 1))
                && isDigit(in.charAt(in.pos + 2))
                && in.charAt(in.pos + 3) == ':');
    if (!withTime) {
      endOfScalar(start);
      return;
    }
    in.pos++;
    partialTime(start);
    c = in.peek();
    if (c == 'Z' || c == 'z') {
      in.pos++;
    } else if (c == '+' || c == '-') {
      in.pos++;
      int hours = fixed(2, start);
      expect(':', start);
      int minutes = fixed(2, start);
      if (hours > 23 || minutes > 59) {
        throw in.problem(start, "offset out of range in " + in.token(start));
      }
    }
    endOfScalar(start);
  }

  private void partialTime(int start) {
    int hour = fixed(2, start);
    expect(':', start);
    int minute = fixed(2, start);
    expect(':', start);
    int second = fixed(2, start);
    if (hour > 23 || minute > 59 || second > 60) {
      throw in.problem(start, "time out of range in " + in.token(start));
    }
    if (second == 60) {
      throw in.problem(start, "a leap second cannot be represented: " + in.token(start));
    }
    if (in.peek() == '.') {
      in.pos++;
      if (!isDigit(in.peek())) {
        throw in.problem(start, "malformed fraction of a second in " + in.token(start));
      }
      while (isDigit(in.peek())) {
        in.pos++;
      }
    }
  }

  private int fixed(int count, int start) {
    int value = 0;
    for (int i = 0; i < count; i++) {
      char c = in.peek();
      if (!isDigit(c)) {
        throw in.problem(start, "malformed datetime " + in.token(start));
      }
      value = value * 10 + (c - '0');
      in.pos++;
    }
    return value;
  }

  private void expect(char c, int start) {
    if (in.peek() != c) {
      throw in.problem(start, "malformed datetime " + in.token(start));
    }
    in.pos++;
  }

  private static int daysIn(int year, int month) {
    return switch (month) {
      case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
      case 4, 6, 9, 11 -> 30;
      default -> 31;
    };
  }
}
