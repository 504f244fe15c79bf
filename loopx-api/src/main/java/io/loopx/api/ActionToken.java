package io.loopx.api;

import java.util.Objects;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * An execution-envelope action token ({@code ^[a-z][a-z0-9_.:-]{0,127}$}), e.g. {@code
 * semantic_preference.recall}.
 *
 * <p>Immutable value; the canonical constructor validates, so every instance is valid. Compares by
 * its text.
 *
 * @param value the validated text
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ActionToken(String value) implements Comparable<ActionToken> {
  private static final Pattern PATTERN = Pattern.compile("[a-z][a-z0-9_.:-]{0,127}");

  /** Validates {@code value}; throws {@link InvalidValueException} naming it when invalid. */
  public ActionToken {
    Objects.requireNonNull(value, "value");
    Grammar.matching("action token", value, PATTERN, "must match [a-z][a-z0-9_.:-]{0,127}");
  }

  /** Returns the action token {@code value}, or throws {@link InvalidValueException} naming it. */
  public static ActionToken of(String value) {
    return new ActionToken(value);
  }

  @Override
  public int compareTo(ActionToken other) {
    return value.compareTo(other.value);
  }

  /** Returns the text itself. */
  @Override
  public String toString() {
    return value;
  }
}
