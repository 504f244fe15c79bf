package io.loopx.api;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A SHA-256 digest in the form {@code sha256:} followed by 64 lowercase hex characters.
 *
 * <p>Immutable value; the canonical constructor validates, so every instance is valid. Compares by
 * its text.
 *
 * @param value the validated text
 */
public record Digest(String value) implements Comparable<Digest> {
  private static final Pattern PATTERN = Pattern.compile("sha256:[0-9a-f]{64}");

  /** Validates {@code value}; throws {@link InvalidValueException} naming it when invalid. */
  public Digest {
    Objects.requireNonNull(value, "value");
    Grammar.matching(
        "digest", value, PATTERN, "must be sha256: followed by 64 lowercase hex characters");
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
