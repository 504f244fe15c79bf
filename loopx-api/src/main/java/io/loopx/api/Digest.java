package io.loopx.api;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A SHA-256 digest in the form {@code sha256:} followed by 64 lowercase hex characters.
 *
 * <p>Immutable value; the canonical constructor validates, so every instance is valid. Compares by
 * its text.
 *
 * @param value the validated text
 */
@API(status = API.Status.STABLE, since = "1.0")
public record Digest(String value) implements Comparable<Digest> {
  /** Validates {@code value}; throws {@link InvalidValueException} naming it when invalid. */
  public Digest {
    Objects.requireNonNull(value, "value");
    Grammar.lowerHex(
        "digest", value, "sha256:", 64, "must be sha256: followed by 64 lowercase hex characters");
  }

  /** Returns the digest {@code value}, or throws {@link InvalidValueException} naming it. */
  public static Digest of(String value) {
    return new Digest(value);
  }

  @Override
  public int compareTo(Digest other) {
    return value.compareTo(other.value);
  }

  /** Returns the text itself. */
  @Override
  public String toString() {
    return value;
  }
}
