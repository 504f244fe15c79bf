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
    return matching(
        what, value, LOWER_KEBAB, "must be lower-kebab-case ([a-z][a-z0-9]*(-[a-z0-9]+)*)");
  }

  static String matching(String what, String value, Pattern pattern, String rule) {
    if (!pattern.matcher(value).matches()) {
      throw new InvalidValueException(what, value, rule);
    }
    return value;
  }
}
