package io.loopx.registry;

import io.loopx.api.InvalidValueException;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One published registry generation: its sequence number in a {@link RegistryHolder} and the sealed
 * registry. A reader that holds it keeps a consistent view whatever is published later.
 *
 * <p>Immutable value; safe to share between threads. Never holds null.
 *
 * @param number the generation number, starting at 1 and increasing by one per publication
 * @param registry the sealed registry of this generation
 */
@API(status = API.Status.STABLE, since = "1.0")
public record RegistryGeneration(long number, CapabilityRegistry registry) {
  /** Rejects a null registry and a number below 1. */
  public RegistryGeneration {
    Objects.requireNonNull(registry, "registry");
    if (number < 1) {
      throw new InvalidValueException(
          "registry generation number", Long.toString(number), "must be at least 1");
    }
  }
}
