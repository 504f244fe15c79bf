package io.loopx.api;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * An extension id: 1..48 characters of lower-kebab-case ({@code ^[a-z][a-z0-9]*(-[a-z0-9]+)*$}),
 * e.g. {@code loopx-text-stats}.
 *
 * <p>Immutable value; the canonical constructor validates, so every instance is valid. Compares by
 * its text.
 *
 * @param value the validated text
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ExtensionId(String value) implements Comparable<ExtensionId> {

  /** Validates {@code value}; throws {@link InvalidValueException} naming it when invalid. */
  public ExtensionId {
    Objects.requireNonNull(value, "value");
    Grammar.lowerKebab("extension id", value);
  }

  /** Returns the extension id {@code value}, or throws {@link InvalidValueException} naming it. */
  public static ExtensionId of(String value) {
    return new ExtensionId(value);
  }

  /**
   * Returns the extension id behind a provider id: an extension provides under its own id, so the
   * two have the same text.
   */
  public static ExtensionId of(ProviderId providerId) {
    return new ExtensionId(providerId.value());
  }

  @Override
  public int compareTo(ExtensionId other) {
    return value.compareTo(other.value);
  }

  /** Returns the text itself. */
  @Override
  public String toString() {
    return value;
  }
}
