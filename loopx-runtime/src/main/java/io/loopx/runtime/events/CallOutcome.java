package io.loopx.runtime.events;

import io.loopx.api.ErrorKind;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunStatus;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * How a dispatch or run ended: a receipt's status (and {@code failure_kind}), or the kind of the
 * error it was refused or failed with. Exactly one of {@code status} and {@code error} is present.
 *
 * @param status the receipt's status ({@code ready} for a preview)
 * @param failure the receipt's {@code failure_kind}
 * @param error the error kind when the call threw
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record CallOutcome(
    Optional<RunStatus> status, Optional<RunFailure> failure, Optional<ErrorKind> error) {

  /** Checks that exactly one of status and error is present. */
  public CallOutcome {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(error, "error");
    if (status.isPresent() == error.isPresent()) {
      throw new IllegalArgumentException("exactly one of status and error");
    }
  }

  /** The outcome of a receipt. */
  public static CallOutcome of(ProviderOutcome outcome) {
    return new CallOutcome(Optional.of(outcome.status()), outcome.failure(), Optional.empty());
  }

  /** The outcome of a call that threw. */
  public static CallOutcome refused(ErrorKind kind) {
    return new CallOutcome(Optional.empty(), Optional.empty(), Optional.of(kind));
  }

  /**
   * Returns the status's or the error's wire name, e.g. {@code succeeded}, {@code not_installed}.
   */
  public String wireName() {
    return status.map(RunStatus::wireName).orElseGet(() -> error.orElseThrow().wireName());
  }
}
