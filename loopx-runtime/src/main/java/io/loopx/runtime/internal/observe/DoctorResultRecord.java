package io.loopx.runtime.internal.observe;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.events.DoctorResult;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorStatus;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** The {@link DoctorResult} LoopX delivers. */
public record DoctorResultRecord(
    String operation,
    ExtensionId extensionId,
    String version,
    DoctorStatus status,
    Optional<DoctorFailure> failure,
    Duration duration)
    implements DoctorResult {

  /** Rejects nulls. */
  public DoctorResultRecord {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(duration, "duration");
  }
}
