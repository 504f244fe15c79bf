package io.loopx.runtime.internal.lifecycle;

import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.process.Containment;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of an executed doctor probe: passed, or failed with a {@link DoctorFailure}, and how
 * the probe's processes were contained.
 *
 * @param failure empty when the probe passed
 * @param containment the launcher's containment, when it says
 */
public record ProbeOutcome(Optional<DoctorFailure> failure, Optional<Containment> containment) {
  /** A probe that exited 0 in time with an unchanged identity (containment not stated). */
  public static final ProbeOutcome PASSED = new ProbeOutcome(Optional.empty(), Optional.empty());

  /** Rejects nulls. */
  public ProbeOutcome {
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(containment, "containment");
  }

  /** Returns a failed outcome (containment not stated). */
  public static ProbeOutcome failed(DoctorFailure failure) {
    return new ProbeOutcome(Optional.of(failure), Optional.empty());
  }

  /** Returns this outcome with {@code containment}. */
  public ProbeOutcome contained(Optional<Containment> containment) {
    return new ProbeOutcome(failure, containment);
  }

  /** Returns whether the probe passed. */
  public boolean passed() {
    return failure.isEmpty();
  }
}
