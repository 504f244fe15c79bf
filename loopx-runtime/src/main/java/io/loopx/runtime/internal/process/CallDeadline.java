package io.loopx.runtime.internal.process;

import io.loopx.api.internal.Durations;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The caller's deadline of one run or dispatch (docs/contract/worker.md#deadline), counted from the
 * moment the call entered {@code Loopx}: the provider's effective timeout is the smaller of the
 * manifest's {@code timeout_seconds} and what is left of it. Immutable.
 *
 * @param startNanos when the call started ({@link System#nanoTime()})
 * @param limit the deadline the host gave; empty when it gave none
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public record CallDeadline(long startNanos, Optional<Duration> limit) {
  /**
   * Rejects nulls and a limit that is not positive.
   *
   * @throws io.loopx.api.InvalidValueException {@code invalid deadline `<limit>`: must be positive}
   */
  public CallDeadline {
    Objects.requireNonNull(limit, "limit").ifPresent(d -> Durations.requirePositive("deadline", d));
  }

  /** A call without a deadline of its own (only the manifest's timeout bounds it). */
  public static CallDeadline none() {
    return new CallDeadline(System.nanoTime(), Optional.empty());
  }

  /** The deadline a caller's optional limit gives: {@link #after} it, or {@link #none()}. */
  public static CallDeadline of(Optional<Duration> limit) {
    return limit.map(CallDeadline::after).orElseGet(CallDeadline::none);
  }

  /** A call that starts now and must end within {@code limit}. */
  public static CallDeadline after(Duration limit) {
    return new CallDeadline(System.nanoTime(), Optional.of(limit));
  }

  /**
   * Returns the smaller of {@code timeout} and what is left of the deadline now (never negative).
   */
  public Duration cap(Duration timeout) {
    if (limit.isEmpty()) {
      return timeout;
    }
    long left = limit.get().toNanos() - (System.nanoTime() - startNanos);
    return Duration.ofNanos(Math.max(0, Math.min(timeout.toNanos(), left)));
  }

  /** Returns whether the deadline has passed. */
  public boolean expired() {
    return limit.isPresent() && System.nanoTime() - startNanos >= limit.get().toNanos();
  }
}
