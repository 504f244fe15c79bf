package io.loopx.runtime.internal.lifecycle;

import io.loopx.runtime.lifecycle.DoctorFailure;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of an executed doctor probe: passed, or failed with a {@link DoctorFailure}.
 *
 * @param failure empty when the probe passed
 */
public record ProbeOutcome(Optional<DoctorFailure> failure) {
  /** A probe that exited 0 in time with an unchanged identity. */
  public static final ProbeOutcome PASSED = new ProbeOutcome(Optional.empty());

  /** Rejects nulls. */
  public ProbeOutcome {
    Objects.requireNonNull(failure, "failure");
  }

  /** Returns a failed outcome. */
  public static ProbeOutcome failed(DoctorFailure failure) {
    return new ProbeOutcome(Optional.of(failure));
  }

  /** Returns whether the probe passed. */
  public boolean passed() {
    return failure.isEmpty();
  }
}
