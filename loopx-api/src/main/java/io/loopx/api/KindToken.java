package io.loopx.api;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A kind token in lower_snake_case ({@code ^[a-z][a-z0-9]*(_[a-z0-9]+)*$}), e.g. {@code
 * projection_sink}.
 *
 * <p>Immutable value; the canonical constructor validates, so every instance is valid. Compares by
 * its text.
 *
 * @param value the validated text
 */
@API(status = API.Status.STABLE, since = "1.0")
public record KindToken(String value) implements Comparable<KindToken> {

  /** Validates {@code value}; throws {@link InvalidValueException} naming it when invalid. */
  public KindToken {
    Objects.requireNonNull(value, "value");
    if (!Grammar.isLowerSeparated(value, '_')) {
      throw new InvalidValueException(
          "kind token", value, "must be lower_snake_case ([a-z][a-z0-9]*(_[a-z0-9]+)*)");
    }
  }

  /** Returns the kind token {@code value}, or throws {@link InvalidValueException} naming it. */
  public static KindToken of(String value) {
    return new KindToken(value);
  }

  @Override
  public int compareTo(KindToken other) {
    return value.compareTo(other.value);
  }

  /** Returns the text itself. */
  @Override
  public String toString() {
    return value;
  }
}
