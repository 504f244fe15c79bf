package io.loopx.runtime.spi;

import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.Arguments;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * What a launch did: its {@link LaunchOutcome}, the exit code (only for {@link
 * LaunchOutcome#EXITED}), the start-failure reason (only for {@link LaunchOutcome#NOT_STARTED}),
 * the captured bytes and the wall-clock duration of the whole call, including termination and
 * draining. A launcher builds it with {@link #notStarted}, {@link #exited} or {@link #stopped}.
 *
 * <p>Each stream holds at most its limit plus one byte: a stream of exactly {@code limit + 1} bytes
 * crossed its cap, and its tail was discarded. The outcome is already classified in
 * docs/contract/run.md's first-match order; callers never need to re-derive it from the bytes.
 * Immutable; the byte accessors return copies.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public final class LaunchResult {
  private final LaunchOutcome outcome;
  private final OptionalInt exitCode;
  private final Optional<String> startFailure;
  private final byte[] stdout;
  private final byte[] stderr;
  private final Duration duration;

  /** Checks the invariants and copies the byte arrays. */
  private LaunchResult(
      LaunchOutcome outcome,
      OptionalInt exitCode,
      Optional<String> startFailure,
      byte[] stdout,
      byte[] stderr,
      Duration duration) {
    this.outcome = Arguments.required("launch outcome", outcome);
    this.exitCode = exitCode;
    this.startFailure = startFailure;
    this.stdout = Arguments.required("stdout", stdout).clone();
    this.stderr = Arguments.required("stderr", stderr).clone();
    this.duration = Arguments.required("launch duration", duration);
    if (exitCode.isPresent() != (outcome == LaunchOutcome.EXITED)) {
      throw new InvalidValueException(
          "launch result", outcome.name(), "has an exit code exactly when it is EXITED");
    }
    if (startFailure.isPresent() != (outcome == LaunchOutcome.NOT_STARTED)) {
      throw new InvalidValueException(
          "launch result", outcome.name(), "has a start failure exactly when it is NOT_STARTED");
    }
    if (outcome == LaunchOutcome.NOT_STARTED
        && (this.stdout.length > 0 || this.stderr.length > 0)) {
      throw new InvalidValueException(
          "launch result", outcome.name(), "a process that did not start has no output");
    }
    if (duration.isNegative()) {
      throw new InvalidValueException(
          "launch result duration", duration.toString(), "must not be negative");
    }
  }

  /**
   * Returns the result of a process that could not be started, for {@code reason}.
   *
   * @throws InvalidValueException when an argument is missing or the duration is negative
   */
  public static LaunchResult notStarted(String reason, Duration duration) {
    return new LaunchResult(
        LaunchOutcome.NOT_STARTED,
        OptionalInt.empty(),
        Optional.of(Arguments.required("start failure", reason)),
        new byte[0],
        new byte[0],
        duration);
  }

  /**
   * Returns the result of a process that exited by itself with {@code exitCode}: its own exit
   * status, 128+n when killed by a signal n that LoopX did not send.
   *
   * @throws InvalidValueException when an argument is missing or the duration is negative
   */
  public static LaunchResult exited(int exitCode, byte[] stdout, byte[] stderr, Duration duration) {
    return new LaunchResult(
        LaunchOutcome.EXITED, OptionalInt.of(exitCode), Optional.empty(), stdout, stderr, duration);
  }

  /**
   * Returns the result of a run that LoopX stopped: {@code outcome} is {@code CANCELLED}, {@code
   * MEMORY_LIMIT}, {@code TIMED_OUT}, {@code STDOUT_OVER_LIMIT} or {@code STDERR_OVER_LIMIT}.
   *
   * @throws InvalidValueException for any other outcome, a missing argument or a negative duration
   */
  public static LaunchResult stopped(
      LaunchOutcome outcome, byte[] stdout, byte[] stderr, Duration duration) {
    if (Arguments.required("stop outcome", outcome) == LaunchOutcome.NOT_STARTED
        || outcome == LaunchOutcome.NOT_STARTED
        || outcome == LaunchOutcome.EXITED) {
      throw new InvalidValueException(
          "stop outcome",
          outcome.name(),
          "must be CANCELLED, MEMORY_LIMIT, TIMED_OUT or an over-limit outcome");
    }
    return new LaunchResult(
        outcome, OptionalInt.empty(), Optional.empty(), stdout, stderr, duration);
  }

  /** Returns how the launch ended. */
  public LaunchOutcome outcome() {
    return outcome;
  }

  /** Returns the process's exit status; present exactly when the outcome is {@code EXITED}. */
  public OptionalInt exitCode() {
    return exitCode;
  }

  /** Returns why the process could not start; present exactly when it is {@code NOT_STARTED}. */
  public Optional<String> startFailure() {
    return startFailure;
  }

  /** Returns the wall-clock time of the call, including termination and draining. */
  public Duration duration() {
    return duration;
  }

  /** Returns a copy of the captured stdout (empty when not started). */
  public byte[] stdout() {
    return stdout.clone();
  }

  /** Returns a copy of the captured stderr (empty when not started). */
  public byte[] stderr() {
    return stderr.clone();
  }

  /** Returns whether the process exited by itself with status 0. */
  public boolean exitedWithZero() {
    return outcome == LaunchOutcome.EXITED && exitCode.getAsInt() == 0;
  }

  /** Describes the result with the stream sizes, not their content. */
  @Override
  public String toString() {
    return "LaunchResult[outcome="
        + outcome
        + ", exitCode="
        + exitCode
        + ", startFailure="
        + startFailure
        + ", stdout="
        + stdout.length
        + " bytes, stderr="
        + stderr.length
        + " bytes, duration="
        + duration
        + "]";
  }
}
