package io.loopx.api;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A provider id: lower-kebab-case like an {@link ExtensionId} (1..48 characters, {@code
 * ^[a-z][a-z0-9]*(-[a-z0-9]+)*$}). A built-in provider uses {@link #LOOPX_CORE} or a host-chosen
 * id; an extension provider uses its extension id.
 *
 * <p>Immutable value; the canonical constructor validates, so every instance is valid. Compares by
 * its text. Never null.
 *
 * @param value the validated text
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ProviderId(String value) implements Comparable<ProviderId> {
  /** The default built-in provider, {@code loopx-core}. */
  public static final ProviderId LOOPX_CORE = new ProviderId("loopx-core");

  /** Validates {@code value}; throws {@link InvalidValueException} naming it when invalid. */
  public ProviderId {
    Objects.requireNonNull(value, "value");
    Grammar.lowerKebab("provider id", value);
  }

  /** Returns the provider id {@code value}, or throws {@link InvalidValueException} naming it. */
  public static ProviderId of(String value) {
    return new ProviderId(value);
  }

  /** Returns the provider id of an extension: its extension id. */
  public static ProviderId of(ExtensionId extensionId) {
    return new ProviderId(extensionId.value());
  }

  @Override
  public int compareTo(ProviderId other) {
    return value.compareTo(other.value);
  }

  /** Returns the text itself. */
  @Override
  public String toString() {
    return value;
  }
}
