package io.loopx.api;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A capability id: lower-kebab-case like an {@link ExtensionId}, e.g. {@code semantic-preference}.
 *
 * <p>Immutable value; the canonical constructor validates, so every instance is valid. Compares by
 * its text.
 *
 * @param value the validated text
 */
@API(status = API.Status.STABLE, since = "1.0")
public record CapabilityId(String value) implements Comparable<CapabilityId> {

  /** Validates {@code value}; throws {@link InvalidValueException} naming it when invalid. */
  public CapabilityId {
    Objects.requireNonNull(value, "value");
    Grammar.lowerKebab("capability id", value);
  }

  /** Returns the capability id {@code value}, or throws {@link InvalidValueException} naming it. */
  public static CapabilityId of(String value) {
    return new CapabilityId(value);
  }

  @Override
  public int compareTo(CapabilityId other) {
    return value.compareTo(other.value);
  }

  /** Returns the text itself. */
  @Override
  public String toString() {
    return value;
  }
}
