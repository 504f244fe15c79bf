package io.loopx.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;

/**
 * A {@link Clock} that stands still until a test moves it: {@link #set(Instant)} or {@link
 * #advance(Duration)}.
 *
 * <p>Thread-safe. The clocks returned by {@link #withZone(ZoneId)} share this clock's time: moving
 * one moves them all.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class FakeClock extends Clock {
  /** The instant a {@link #create()}d clock starts at: {@code 2024-01-01T00:00:00Z}. */
  public static final Instant DEFAULT_START = Instant.parse("2024-01-01T00:00:00Z");

  private final AtomicReference<Instant> now;
  private final ZoneId zone;

  private FakeClock(AtomicReference<Instant> now, ZoneId zone) {
    this.now = now;
    this.zone = zone;
  }

  /** Returns a clock at {@link #DEFAULT_START} in UTC. */
  public static FakeClock create() {
    return at(DEFAULT_START);
  }

  /** Returns a clock at {@code start} in UTC. */
  public static FakeClock at(Instant start) {
    return at(start, ZoneOffset.UTC);
  }

  /** Returns a clock at {@code start} in {@code zone}. */
  public static FakeClock at(Instant start, ZoneId zone) {
    return new FakeClock(
        new AtomicReference<>(Objects.requireNonNull(start, "start")),
        Objects.requireNonNull(zone, "zone"));
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  /** Returns a clock in {@code zone} that shares this clock's time. */
  @Override
  public FakeClock withZone(ZoneId zone) {
    return new FakeClock(now, Objects.requireNonNull(zone, "zone"));
  }

  @Override
  public Instant instant() {
    return Objects.requireNonNull(now.get(), "now"); // never set to null
  }

  /** Moves the clock to {@code instant} (also backwards, to test clock jumps). */
  public void set(Instant instant) {
    now.set(Objects.requireNonNull(instant, "instant"));
  }

  /**
   * Moves the clock forward by {@code duration} and returns the new instant.
   *
   * @throws IllegalArgumentException when {@code duration} is negative (use {@link #set} to jump
   *     back)
   */
  public Instant advance(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative()) {
      throw new IllegalArgumentException("cannot advance by a negative duration: " + duration);
    }
    return now.updateAndGet(i -> i.plus(duration));
  }

  /** Describes the current instant and the zone. */
  @Override
  public String toString() {
    return "FakeClock[" + now.get() + ", " + zone + "]";
  }
}
