package io.loopx.api;

import java.util.regex.Pattern;

/**
 * Shared grammar checks of docs/contract/grammars.md (package-private). Lengths count Unicode code
 * points.
 */
final class Grammar {
  static final Pattern LOWER_KEBAB = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
  static final int LOWER_KEBAB_MAX = 48;

  private Grammar() {}

  static String lowerKebab(String what, String value) {
    if (value.isEmpty() || value.length() > LOWER_KEBAB_MAX) {
      throw new InvalidValueException(
          what, value, "must be 1.." + LOWER_KEBAB_MAX + " characters of lower-kebab-case");
    }
    if (!isLowerSeparated(value, '-')) {
      throw new InvalidValueException(
          what, value, "must be lower-kebab-case ([a-z][a-z0-9]*(-[a-z0-9]+)*)");
    }
    return value;
  }

  /**
   * Returns whether {@code value} matches {@code [a-z][a-z0-9]*(S[a-z0-9]+)*} for the separator
   * {@code S} (what {@link #LOWER_KEBAB} matches for {@code -}), without a regex: ids are checked
   * on every manifest and registry read.
   */
  static boolean isLowerSeparated(String value, char separator) {
    int n = value.length();
    if (n == 0 || !isLower(value.charAt(0))) {
      return false;
    }
    boolean afterSeparator = false;
    for (int i = 1; i < n; i++) {
      char c = value.charAt(i);
      if (c == separator) {
        if (afterSeparator) {
          return false;
        }
        afterSeparator = true;
      } else if (isLower(c) || isDigit(c)) {
        afterSeparator = false;
      } else {
        return false;
      }
    }
    return !afterSeparator;
  }

  /**
   * Returns whether {@code value} matches {@code [a-z][a-z0-9_]{0,63}_v[0-9]+} (a protocol or
   * schema token), without a regex. The trailing digits must run to the end and be preceded by
   * {@code _v}, so the split is unique: the longest run of trailing digits.
   */
  static boolean isProtocolToken(String value) {
    int n = value.length();
    int digits = n;
    while (digits > 0 && value.charAt(digits - 1) >= '0' && value.charAt(digits - 1) <= '9') {
      digits--;
    }
    int prefix = digits - 2; // the length before "_v"
    if (digits == n
        || prefix < 1
        || prefix > 64
        || value.charAt(prefix) != '_'
        || value.charAt(prefix + 1) != 'v'
        || !isLower(value.charAt(0))) {
      return false;
    }
    for (int i = 1; i < prefix; i++) {
      char c = value.charAt(i);
      if (!isLower(c) && !isDigit(c) && c != '_') {
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

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isLower(char c) {
    return c >= 'a' && c <= 'z';
  }

  static String matching(String what, String value, Pattern pattern, String rule) {
    if (!pattern.matcher(value).matches()) {
      throw new InvalidValueException(what, value, rule);
    }
    return value;
  }
}
