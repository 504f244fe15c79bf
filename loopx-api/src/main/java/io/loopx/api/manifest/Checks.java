package io.loopx.api.manifest;

import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.ManifestValues;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Checks shared by the manifest records (package-private): every value a record holds passes the
 * rules the loader applies (docs/contract/manifest.md), so a record written to a state reads back.
 * The value rules themselves are owned by {@link ManifestValues}.
 */
final class Checks {
  private static final Pattern JAVA_CLASS =
      Pattern.compile(
          "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)+");

  private Checks() {}

  /** A non-empty, trimmed Unicode string. */
  static String nonBlank(String key, String value) {
    if (value.isEmpty() || !value.strip().equals(value)) {
      throw new InvalidValueException(key, value, "must be a non-empty trimmed string");
    }
    return rule(key, value, ManifestValues.loneSurrogate(value));
  }

  /**
   * A {@link #nonBlank} string of manifest text: no control, separator or bidirectional control
   * character ({@link ManifestValues#unsafeCharacter}).
   */
  static String text(String key, String value) {
    nonBlank(key, value);
    return rule(key, value, ManifestValues.unsafeCharacter(value));
  }

  /** A {@link #text} string that is plain text of at most {@code max} code points. */
  static String plainText(String key, String value, int max) {
    text(key, value);
    return rule(key, value, ManifestValues.plainText(value, max));
  }

  /** Throws the {@code problem}, if any, as the rule of {@code key} that {@code value} breaks. */
  static String rule(String key, String value, Optional<String> problem) {
    if (problem.isPresent()) {
      throw new InvalidValueException(key, value, problem.get());
    }
    return value;
  }

  /** Extra {@code [[provides]]} keys and values that a state read accepts as they are. */
  static void metadata(Map<String, JsonNode> metadata) {
    for (Map.Entry<String, JsonNode> e : metadata.entrySet()) {
      Optional<ManifestValues.Problem> problem =
          ManifestValues.metadataEntry(
              "provides", e.getKey(), e.getValue(), Checks::describe, true);
      if (problem.isPresent()) {
        throw new InvalidValueException(
            problem.get().path(), e.getValue().toString(), problem.get().detail());
      }
    }
  }

  private static String describe(JsonNode node) {
    return ManifestValues.describe(node, "object", "a non-integral number", "a non-JSON value");
  }

  static String nonBlankNoNul(String key, String value) {
    nonBlank(key, value);
    return rule(key, value, ManifestValues.noNul(value));
  }

  static String javaClassName(String key, String value) {
    rule(key, value, ManifestValues.unsafeCharacter(value));
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

  /**
   * A {@code java_class_path}: at most {@link LaunchTarget.JavaMain#MAX_CLASS_PATH_ENTRIES}
   * distinct entries, each a {@link #text} string that passes {@link
   * ManifestValues#classPathEntry}.
   */
  static List<String> classPath(String key, List<String> values) {
    List<String> copy = unique(key, values);
    if (copy.size() > LaunchTarget.JavaMain.MAX_CLASS_PATH_ENTRIES) {
      throw new InvalidValueException(
          key,
          Integer.toString(copy.size()),
          "must hold at most " + LaunchTarget.JavaMain.MAX_CLASS_PATH_ENTRIES + " paths");
    }
    copy.forEach(v -> rule(key, text(key, v), ManifestValues.classPathEntry(v)));
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
