package io.loopx.api;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A manifest revision id: the first 16 lowercase hex characters of the SHA-256 of the canonical
 * JSON of a normalised manifest, e.g. {@code 1566783bb5842048}.
 *
 * <p>Immutable value; the canonical constructor validates, so every instance is valid. Compares by
 * its text.
 *
 * @param value the validated text
 */
@API(status = API.Status.STABLE, since = "1.0")
public record Revision(String value) implements Comparable<Revision> {
  /** Validates {@code value}; throws {@link InvalidValueException} naming it when invalid. */
  public Revision {
    Objects.requireNonNull(value, "value");
    Grammar.lowerHex("revision id", value, "", 16, "must be 16 lowercase hex characters");
  }

  /** Returns the revision id {@code value}, or throws {@link InvalidValueException} naming it. */
  public static Revision of(String value) {
    return new Revision(value);
  }

  @Override
  public int compareTo(Revision other) {
    return value.compareTo(other.value);
  }

  /** Returns the text itself. */
  @Override
  public String toString() {
    return value;
  }
}
