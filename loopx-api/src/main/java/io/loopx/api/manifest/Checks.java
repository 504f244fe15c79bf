package io.loopx.api.manifest;

import io.loopx.api.InvalidValueException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Structural checks shared by the manifest records (package-private). */
final class Checks {
  private static final Pattern JAVA_CLASS =
      Pattern.compile(
          "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)+");

  private Checks() {}

  static String nonBlank(String key, String value) {
    if (value.isEmpty() || !value.strip().equals(value)) {
      throw new InvalidValueException(key, value, "must be a non-empty trimmed string");
    }
    return value;
  }

  static String nonBlankNoNul(String key, String value) {
    nonBlank(key, value);
    if (value.indexOf('\0') >= 0) {
      throw new InvalidValueException(key, value, "must not contain NUL");
    }
    return value;
  }

  static String javaClassName(String key, String value) {
    if (!JAVA_CLASS.matcher(value).matches()) {
      throw new InvalidValueException(key, value, "must be a fully-qualified Java class name");
    }
    return value;
  }

  static List<String> arguments(String key, List<String> values) {
    List<String> copy = List.copyOf(values);
    copy.forEach(v -> nonBlankNoNul(key, v));
    return copy;
  }

  static <T> List<T> unique(String key, List<T> values) {
    List<T> copy = List.copyOf(values);
    Set<T> seen = new HashSet<>();
    for (T v : copy) {
      if (!seen.add(v)) {
        throw new InvalidValueException(key, String.valueOf(v), "must not repeat");
      }
    }
    return copy;
  }
}
