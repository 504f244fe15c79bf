package io.loopx.runtime.internal.lifecycle;

import io.loopx.runtime.internal.process.StderrTail;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import io.loopx.runtime.spi.LaunchResult;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The outcome of an executed doctor probe: passed, or failed with a {@link DoctorFailure}, how the
 * probe's processes were contained, and what the probe said (exit code, stderr tail).
 *
 * @param failure empty when the probe passed
 * @param containment the launcher's containment, when it says
 * @param exitCode the probe's own exit status, when it exited by itself
 * @param stderrTail the tail of the probe's stderr, when it wrote any that was kept
 * @param memoryLimit the memory limit that applied to the probe, in bytes, when one did
 * @param handshakeLine the start of the worker check's first line, when it was not a handshake
 * @param isolation what isolated the probe, when the host's isolation policy is not off
 */
public record ProbeOutcome(
    Optional<DoctorFailure> failure,
    Optional<Containment> containment,
    OptionalInt exitCode,
    Optional<String> stderrTail,
    OptionalLong memoryLimit,
    Optional<String> handshakeLine,
    Optional<Isolation> isolation) {
  /** A probe that exited 0 in time with an unchanged identity (nothing else stated). */
  public static final ProbeOutcome PASSED =
      new ProbeOutcome(Optional.empty(), Optional.empty(), OptionalInt.empty(), Optional.empty());

  /** An outcome without a memory limit or a handshake line. */
  public ProbeOutcome(
      Optional<DoctorFailure> failure,
      Optional<Containment> containment,
      OptionalInt exitCode,
      Optional<String> stderrTail) {
    this(failure, containment, exitCode, stderrTail, OptionalLong.empty(), Optional.empty());
  }

  /** An outcome without an isolation. */
  public ProbeOutcome(
      Optional<DoctorFailure> failure,
      Optional<Containment> containment,
      OptionalInt exitCode,
      Optional<String> stderrTail,
      OptionalLong memoryLimit,
      Optional<String> handshakeLine) {
    this(failure, containment, exitCode, stderrTail, memoryLimit, handshakeLine, Optional.empty());
  }

  /** Rejects nulls. */
  public ProbeOutcome {
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(containment, "containment");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(stderrTail, "stderrTail");
    Objects.requireNonNull(memoryLimit, "memoryLimit");
    Objects.requireNonNull(handshakeLine, "handshakeLine");
    Objects.requireNonNull(isolation, "isolation");
  }

  /** Returns a failed outcome (nothing else stated). */
  public static ProbeOutcome failed(DoctorFailure failure) {
    return new ProbeOutcome(
        Optional.of(failure), Optional.empty(), OptionalInt.empty(), Optional.empty());
  }

  /** Returns this outcome with {@code containment}. */
  public ProbeOutcome contained(Optional<Containment> containment) {
    return new ProbeOutcome(
        failure, containment, exitCode, stderrTail, memoryLimit, handshakeLine, isolation);
  }

  /** Returns this outcome with {@code containment} and {@code memoryLimit}. */
  public ProbeOutcome contained(Optional<Containment> containment, OptionalLong memoryLimit) {
    return new ProbeOutcome(
        failure, containment, exitCode, stderrTail, memoryLimit, handshakeLine, isolation);
  }

  /** Returns this outcome with {@code isolation}. */
  public ProbeOutcome isolated(Optional<Isolation> isolation) {
    return new ProbeOutcome(
        failure, containment, exitCode, stderrTail, memoryLimit, handshakeLine, isolation);
  }

  /** Returns this outcome with the exit code and stderr tail of {@code result}. */
  public ProbeOutcome saying(LaunchResult result) {
    return new ProbeOutcome(
        failure,
        containment,
        result.exitCode(),
        StderrTail.of(result.stderr()),
        memoryLimit,
        handshakeLine,
        isolation);
  }

  /** Returns whether the probe passed. */
  public boolean passed() {
    return failure.isEmpty();
  }
}
