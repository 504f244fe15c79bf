package io.loopx.runtime.process;

import io.loopx.api.InvalidValueException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What a launch did: its {@link LaunchOutcome}, the exit code (only for {@link
 * LaunchOutcome#EXITED}), the start-failure reason (only for {@link LaunchOutcome#NOT_STARTED}),
 * the captured bytes and the wall-clock duration of the whole call.
 *
 * <p>Each stream holds at most its limit plus one byte: a stream of exactly {@code limit + 1} bytes
 * crossed its cap, and its tail was discarded. The outcome is already classified in
 * docs/contract/run.md's first-match order; callers never need to re-derive it from the bytes.
 * Immutable; the byte accessors return copies.
 *
 * @param outcome how the launch ended
 * @param exitCode the process's own exit status (128+n when killed by a signal n that LoopX did not
 *     send); present exactly when the outcome is {@code EXITED}
 * @param startFailure why the process could not be started; present exactly when the outcome is
 *     {@code NOT_STARTED}
 * @param stdout the captured stdout (empty when not started)
 * @param stderr the captured stderr (empty when not started)
 * @param duration the wall-clock time of the call, including termination and draining
 */
// Arrays as components: the accessors copy and equals/hashCode/toString are overridden.
@SuppressWarnings("ArrayRecordComponent")
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record LaunchResult(
    LaunchOutcome outcome,
    OptionalInt exitCode,
    Optional<String> startFailure,
    byte[] stdout,
    byte[] stderr,
    Duration duration) {

  /**
   * Checks the invariants and copies the byte arrays.
   *
   * @throws InvalidValueException when the exit code or start failure does not match the outcome, a
   *     not-started result carries output, or the duration is negative
   */
  public LaunchResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(startFailure, "startFailure");
    stdout = Objects.requireNonNull(stdout, "stdout").clone();
    stderr = Objects.requireNonNull(stderr, "stderr").clone();
    Objects.requireNonNull(duration, "duration");
    if (exitCode.isPresent() != (outcome == LaunchOutcome.EXITED)) {
      throw new InvalidValueException(
          "launch result", outcome.name(), "has an exit code exactly when it is EXITED");
    }
    if (startFailure.isPresent() != (outcome == LaunchOutcome.NOT_STARTED)) {
      throw new InvalidValueException(
          "launch result", outcome.name(), "has a start failure exactly when it is NOT_STARTED");
    }
    if (outcome == LaunchOutcome.NOT_STARTED && (stdout.length > 0 || stderr.length > 0)) {
      throw new InvalidValueException(
          "launch result", outcome.name(), "a process that did not start has no output");
    }
    if (duration.isNegative()) {
      throw new InvalidValueException(
          "launch result duration", duration.toString(), "must not be negative");
    }
  }

  /** Returns the result of a process that could not be started, for {@code reason}. */
  public static LaunchResult notStarted(String reason, Duration duration) {
    return new LaunchResult(
        LaunchOutcome.NOT_STARTED,
        OptionalInt.empty(),
        Optional.of(reason),
        new byte[0],
        new byte[0],
        duration);
  }

  /** Returns the result of a process that exited by itself with {@code exitCode}. */
  public static LaunchResult exited(int exitCode, byte[] stdout, byte[] stderr, Duration duration) {
    return new LaunchResult(
        LaunchOutcome.EXITED, OptionalInt.of(exitCode), Optional.empty(), stdout, stderr, duration);
  }

  /**
   * Returns the result of a run that LoopX stopped: {@code outcome} is {@code CANCELLED}, {@code
   * MEMORY_LIMIT}, {@code TIMED_OUT}, {@code STDOUT_OVER_LIMIT} or {@code STDERR_OVER_LIMIT}.
   *
   * @throws InvalidValueException for any other outcome
   */
  public static LaunchResult stopped(
      LaunchOutcome outcome, byte[] stdout, byte[] stderr, Duration duration) {
    if (outcome == LaunchOutcome.NOT_STARTED || outcome == LaunchOutcome.EXITED) {
      throw new InvalidValueException(
          "stop outcome",
          outcome.name(),
          "must be CANCELLED, MEMORY_LIMIT, TIMED_OUT or an over-limit outcome");
    }
    return new LaunchResult(
        outcome, OptionalInt.empty(), Optional.empty(), stdout, stderr, duration);
  }

  /** Returns a copy of the captured stdout. */
  @Override
  public byte[] stdout() {
    return stdout.clone();
  }

  /** Returns a copy of the captured stderr. */
  @Override
  public byte[] stderr() {
    return stderr.clone();
  }

  /** Returns whether the process exited by itself with status 0. */
  public boolean exitedWithZero() {
    return outcome == LaunchOutcome.EXITED && exitCode.getAsInt() == 0;
  }

  /** Compares all components, the bytes by content. */
  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof LaunchResult that
        && that.outcome == outcome
        && that.exitCode.equals(exitCode)
        && that.startFailure.equals(startFailure)
        && Arrays.equals(that.stdout, stdout)
        && Arrays.equals(that.stderr, stderr)
        && that.duration.equals(duration);
  }

  /** Hashes all components, the bytes by content. */
  @Override
  public int hashCode() {
    return Objects.hash(
        outcome,
        exitCode,
        startFailure,
        Arrays.hashCode(stdout),
        Arrays.hashCode(stderr),
        duration);
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
