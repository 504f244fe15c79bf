package io.loopx.api.internal;

import io.loopx.api.InvalidValueException;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * The rule "a duration must be positive" (longer than zero) and its message, for every bound the
 * LoopX modules take: the process timeout, the caller's deadline. The caller names the value and
 * checks nulls itself.
 */
@API(status = API.Status.INTERNAL, since = "0.3")
public final class Durations {
  private Durations() {}

  /** Returns whether {@code value} is longer than zero. */
  public static boolean positive(Duration value) {
    return !value.isNegative() && !value.isZero();
  }

  /**
   * Returns {@code value} when it is positive.
   *
   * @throws InvalidValueException {@code invalid <what> `<value>`: must be positive} otherwise
   */
  public static Duration requirePositive(String what, Duration value) {
    if (!positive(value)) {
      throw new InvalidValueException(what, value.toString(), "must be positive");
    }
    return value;
  }
}
