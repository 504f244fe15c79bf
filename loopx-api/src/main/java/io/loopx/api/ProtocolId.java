package io.loopx.api;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A protocol or schema token ({@code ^[a-z][a-z0-9_]{0,63}_v[0-9]+$}), e.g. {@code
 * semantic_preference_provider_v0}.
 *
 * <p>Immutable value; the canonical constructor validates, so every instance is valid. Compares by
 * its text.
 *
 * @param value the validated text
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ProtocolId(String value) implements Comparable<ProtocolId> {

  /** Validates {@code value}; throws {@link InvalidValueException} naming it when invalid. */
  public ProtocolId {
    Objects.requireNonNull(value, "value");
    if (!Grammar.isProtocolToken(value)) {
      throw new InvalidValueException(
          "protocol token", value, "must match [a-z][a-z0-9_]{0,63}_v[0-9]+");
    }
  }

  /**
   * Returns the protocol or schema token {@code value}, or throws {@link InvalidValueException}
   * naming it.
   */
  public static ProtocolId of(String value) {
    return new ProtocolId(value);
  }

  @Override
  public int compareTo(ProtocolId other) {
    return value.compareTo(other.value);
  }

  /** Returns the text itself. */
  @Override
  public String toString() {
    return value;
  }
}
