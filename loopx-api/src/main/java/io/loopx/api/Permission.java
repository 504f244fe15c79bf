package io.loopx.api;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A permission name, e.g. {@code semantic_preference.read}: non-empty, already trimmed, at most 128
 * code points, with no control ({@code Cc}) or format ({@code Cf}) characters.
 *
 * <p>Declaring a permission grants nothing: it records what a provider's operations need so that a
 * capability command can check it before dispatch. Immutable; compares by its text.
 *
 * @param value the validated text
 */
@API(status = API.Status.STABLE, since = "1.0")
public record Permission(String value) implements Comparable<Permission> {
  /** The maximum length in code points. */
  public static final int MAX_CODE_POINTS = 128;

  /** Validates {@code value}; throws {@link InvalidValueException} naming it when invalid. */
  public Permission {
    Objects.requireNonNull(value, "value");
    if (value.isEmpty()) {
      throw new InvalidValueException("permission", value, "must not be empty");
    }
    if (!value.strip().equals(value)) {
      throw new InvalidValueException("permission", value, "must not start or end with whitespace");
    }
    if (value.codePointCount(0, value.length()) > MAX_CODE_POINTS) {
      throw new InvalidValueException(
          "permission", value, "must be at most " + MAX_CODE_POINTS + " code points");
    }
    value
        .codePoints()
        .forEach(
            cp -> {
              int type = Character.getType(cp);
              if (type == Character.CONTROL || type == Character.FORMAT) {
                throw new InvalidValueException(
                    "permission",
                    value,
                    String.format("must not contain control or format character U+%04X", cp));
              }
            });
  }

  /** Returns the permission {@code value}, or throws {@link InvalidValueException} naming it. */
  public static Permission of(String value) {
    return new Permission(value);
  }

  @Override
  public int compareTo(Permission other) {
    return value.compareTo(other.value);
  }

  /** Returns the text itself. */
  @Override
  public String toString() {
    return value;
  }
}
