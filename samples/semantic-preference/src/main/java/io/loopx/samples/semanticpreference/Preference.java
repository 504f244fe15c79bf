package io.loopx.samples.semanticpreference;

import java.util.Objects;
import java.util.regex.Pattern;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One remembered preference: a stable reference and a one-sentence summary.
 *
 * @param preferenceRef the reference, {@code pref-} followed by lower-kebab-case words (for example
 *     {@code pref-editor-dark-theme}), matching {@value #REF_PATTERN}
 * @param summary the summary, not blank
 */
public record Preference(String preferenceRef, String summary) {
  /** The grammar of a preference reference. */
  public static final String REF_PATTERN = "pref-[a-z0-9]+(-[a-z0-9]+)*";

  private static final Pattern REF = Pattern.compile(REF_PATTERN);

  /**
   * Validates the components.
   *
   * @throws IllegalArgumentException naming the value when the reference breaks {@value
   *     #REF_PATTERN} or the summary is blank
   */
  public Preference {
    Objects.requireNonNull(preferenceRef, "preferenceRef");
    Objects.requireNonNull(summary, "summary");
    if (!REF.matcher(preferenceRef).matches()) {
      throw new IllegalArgumentException(
          "preference_ref `" + preferenceRef + "` must match " + REF_PATTERN);
    }
    if (summary.isBlank()) {
      throw new IllegalArgumentException(
          "summary of preference `" + preferenceRef + "` must not be blank");
    }
  }

  /**
   * Returns a new object {@code {"preference_ref":..., "summary":...}}, the wire form of an item.
   */
  public ObjectNode toJson() {
    ObjectNode item = JsonNodeFactory.instance.objectNode();
    item.put("preference_ref", preferenceRef);
    item.put("summary", summary);
    return item;
  }
}
