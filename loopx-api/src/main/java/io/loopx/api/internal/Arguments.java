package io.loopx.api.internal;

import io.loopx.api.InvalidValueException;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The rule "a public builder or factory refuses a missing argument with {@link
 * InvalidValueException}" (one exception type for every bad argument), for the LoopX modules.
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public final class Arguments {
  private Arguments() {}

  /**
   * Returns {@code value} when it is present.
   *
   * @throws InvalidValueException {@code invalid <what> `null`: is required} otherwise
   */
  public static <T> T required(String what, @Nullable T value) {
    if (value == null) {
      throw new InvalidValueException(what, "null", "is required");
    }
    return value;
  }
}
