package io.loopx.runtime.internal.observe;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import io.loopx.runtime.Mode;
import io.loopx.runtime.events.CallCompleted;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunStatus;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** The {@link CallCompleted} LoopX delivers. */
public record CallCompletedRecord(
    String operation,
    Optional<ExtensionId> extensionId,
    Optional<CapabilityId> capabilityId,
    Optional<ProtocolId> protocol,
    Optional<ActionToken> action,
    Optional<ProviderId> providerId,
    Optional<Revision> revision,
    Mode mode,
    Duration duration,
    Optional<RunStatus> status,
    Optional<RunFailure> failure,
    Optional<ErrorKind> error)
    implements CallCompleted {

  /** Rejects nulls and an outcome without exactly one of status and error. */
  public CallCompletedRecord {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(providerId, "providerId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(error, "error");
    if (status.isPresent() == error.isPresent()) {
      throw new IllegalArgumentException("exactly one of status and error");
    }
  }

  /** How a call ended: a receipt's outcome, or the kind of the error it threw. */
  record Outcome(
      Optional<RunStatus> status, Optional<RunFailure> failure, Optional<ErrorKind> error) {
    /** The outcome of a receipt. */
    static Outcome of(ProviderOutcome outcome) {
      return new Outcome(Optional.of(outcome.status()), outcome.failure(), Optional.empty());
    }

    /** The outcome of a call that threw. */
    static Outcome refused(ErrorKind kind) {
      return new Outcome(Optional.empty(), Optional.empty(), Optional.of(kind));
    }

    /** The status's or the error's wire name, e.g. {@code succeeded}, {@code not_installed}. */
    String wireName() {
      return status.map(RunStatus::wireName).orElseGet(() -> error.orElseThrow().wireName());
    }
  }

  /** A completed dispatch. */
  static CallCompletedRecord dispatch(
      CapabilityId capabilityId,
      ProtocolId protocol,
      ActionToken action,
      Optional<ProviderId> providerId,
      Optional<Revision> revision,
      Mode mode,
      Duration duration,
      Outcome outcome) {
    return new CallCompletedRecord(
        "dispatch",
        Optional.empty(),
        Optional.of(capabilityId),
        Optional.of(protocol),
        Optional.of(action),
        providerId,
        revision,
        mode,
        duration,
        outcome.status(),
        outcome.failure(),
        outcome.error());
  }

  /** A completed run. */
  static CallCompletedRecord run(
      ExtensionId id, Optional<Revision> revision, Mode mode, Duration duration, Outcome outcome) {
    return new CallCompletedRecord(
        "run",
        Optional.of(id),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        revision,
        mode,
        duration,
        outcome.status(),
        outcome.failure(),
        outcome.error());
  }
}
