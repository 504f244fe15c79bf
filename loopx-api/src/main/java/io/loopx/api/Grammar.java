package io.loopx.api;

import java.util.regex.Pattern;

/** Shared grammar checks of SPEC §1 (package-private). Lengths count Unicode code points. */
final class Grammar {
  static final Pattern LOWER_KEBAB = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
  static final int LOWER_KEBAB_MAX = 48;

  private Grammar() {}

  static String lowerKebab(String what, String value) {
    if (value.isEmpty() || value.length() > LOWER_KEBAB_MAX) {
      throw new InvalidValueException(
          what, value, "must be 1.." + LOWER_KEBAB_MAX + " characters of lower-kebab-case");
    }
    if (!isLowerKebab(value)) {
      throw new InvalidValueException(
          what, value, "must be lower-kebab-case ([a-z][a-z0-9]*(-[a-z0-9]+)*)");
    }
    return value;
  }

  /**
   * Whether {@code value} matches {@link #LOWER_KEBAB}: a letter first, then letters, digits and
   * single hyphens, never a hyphen last. Hand-written: ids are checked on every dispatch.
   */
  static boolean isLowerKebab(String value) {
    int n = value.length();
    if (n == 0 || !isLower(value.charAt(0))) {
      return false;
    }
    for (int i = 1; i < n; i++) {
      char c = value.charAt(i);
      if (c == '-') {
        if (i + 1 == n || value.charAt(i + 1) == '-') {
          return false;
        }
      } else if (!isLower(c) && !isDigit(c)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns {@code value} if it is {@code prefix} followed by exactly {@code hexDigits} lowercase
   * hex characters, else throws {@link InvalidValueException} with {@code rule}.
   */
  static String lowerHex(String what, String value, String prefix, int hexDigits, String rule) {
    boolean ok = value.length() == prefix.length() + hexDigits && value.startsWith(prefix);
    for (int i = prefix.length(); ok && i < value.length(); i++) {
      char c = value.charAt(i);
      ok = isDigit(c) || (c >= 'a' && c <= 'f');
    }
    if (!ok) {
      throw new InvalidValueException(what, value, rule);
    }
    return value;
  }

  private static boolean isLower(char c) {
    return c >= 'a' && c <= 'z';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static String matching(String what, String value, Pattern pattern, String rule) {
    if (!pattern.matcher(value).matches()) {
      throw new InvalidValueException(what, value, rule);
    }
    return value;
  }
}
