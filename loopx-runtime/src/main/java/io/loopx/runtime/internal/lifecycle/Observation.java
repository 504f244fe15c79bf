package io.loopx.runtime.internal.lifecycle;

import java.util.Objects;
import java.util.Optional;

/**
 * What was observed of a {@link Target}: its runtime resolution before any probe and, when the
 * probe was executed, its outcome (which already accounts for an identity change during the probe).
 *
 * @param runtime the resolution before probing
 * @param probe the executed probe's outcome; empty when not probed
 */
public record Observation(RuntimeObservation runtime, Optional<ProbeOutcome> probe) {
  /** Rejects nulls. */
  public Observation {
    Objects.requireNonNull(runtime, "runtime");
    Objects.requireNonNull(probe, "probe");
  }
}
