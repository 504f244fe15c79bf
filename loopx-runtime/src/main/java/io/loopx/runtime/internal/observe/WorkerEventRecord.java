package io.loopx.runtime.internal.observe;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.events.WorkerEvent;
import io.loopx.runtime.events.WorkerEvent.Reason;
import io.loopx.runtime.run.RunFailure;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/** The {@link WorkerEvent} LoopX delivers. */
public record WorkerEventRecord(
    Reason reason,
    ExtensionId extensionId,
    Revision revision,
    long pid,
    long requestsServed,
    Duration duration,
    OptionalInt exitCode,
    Optional<RunFailure> failure)
    implements WorkerEvent {

  /** Rejects nulls, and a failure on any reason but {@link Reason#CRASHED} or none on it. */
  public WorkerEventRecord {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(failure, "failure");
    if (failure.isPresent() != (reason == Reason.CRASHED)) {
      throw new IllegalArgumentException("a failure exactly when crashed: " + reason);
    }
  }

  /** A worker passed its handshake {@code took} after its launch. */
  public static WorkerEventRecord spawned(
      ExtensionId id, Revision revision, long pid, Duration took) {
    return new WorkerEventRecord(
        Reason.SPAWNED, id, revision, pid, 0, took, OptionalInt.empty(), Optional.empty());
  }

  /** LoopX ended a worker for {@code reason} (neither spawned nor crashed). */
  public static WorkerEventRecord retired(
      ExtensionId id, Revision revision, long pid, Reason reason, long served, Duration lifetime) {
    if (reason == Reason.SPAWNED || reason == Reason.CRASHED) {
      throw new IllegalArgumentException("not a retire reason: " + reason);
    }
    return new WorkerEventRecord(
        reason, id, revision, pid, served, lifetime, OptionalInt.empty(), Optional.empty());
  }

  /** A worker failed on its own. */
  public static WorkerEventRecord crashed(
      ExtensionId id,
      Revision revision,
      long pid,
      OptionalInt exitCode,
      RunFailure failure,
      long served,
      Duration lifetime) {
    return new WorkerEventRecord(
        Reason.CRASHED, id, revision, pid, served, lifetime, exitCode, Optional.of(failure));
  }
}
