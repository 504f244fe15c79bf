package io.loopx.registry;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;

/**
 * Holds the current registry generation and publishes new sealed generations atomically. Readers
 * call {@link #current()} once per operation and keep the returned {@link RegistryGeneration}: it
 * never changes, so they never observe a mix of two generations.
 *
 * <p>Created and owned by the host's runtime. <b>Thread-safe</b>: any number of readers and
 * publishers may use it concurrently; publication is a single atomic reference swap. Never returns
 * null.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class RegistryHolder {
  private final AtomicReference<RegistryGeneration> current;

  private RegistryHolder(CapabilityRegistry initial) {
    this.current = new AtomicReference<>(new RegistryGeneration(1, initial));
  }

  /** Returns a holder whose generation 1 is {@code initial}. */
  public static RegistryHolder of(CapabilityRegistry initial) {
    return new RegistryHolder(Objects.requireNonNull(initial, "initial"));
  }

  /** Returns the current generation. */
  public RegistryGeneration current() {
    return Objects.requireNonNull(current.get(), "current"); // never set to null
  }

  /** Publishes {@code next} as the next generation unconditionally and returns it. */
  public RegistryGeneration publish(CapabilityRegistry next) {
    Objects.requireNonNull(next, "next");
    return current.updateAndGet(g -> new RegistryGeneration(g.number() + 1, next));
  }

  /**
   * Publishes {@code next} only if {@code expected} is still the current generation (compare and
   * set by identity); returns the new generation, or empty when another publication came first.
   */
  public Optional<RegistryGeneration> publishIfCurrent(
      RegistryGeneration expected, CapabilityRegistry next) {
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(next, "next");
    RegistryGeneration candidate = new RegistryGeneration(expected.number() + 1, next);
    return current.compareAndSet(expected, candidate) ? Optional.of(candidate) : Optional.empty();
  }
}
