package io.loopx.runtime.internal.observe;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.events.LifecycleTransition;
import io.loopx.runtime.events.TransitionCause;
import io.loopx.runtime.lifecycle.DoctorStatus;
import java.util.Objects;
import java.util.Optional;

/** The {@link LifecycleTransition} LoopX delivers. */
public record LifecycleTransitionRecord(
    String operation,
    ExtensionId extensionId,
    Optional<Revision> previousRevision,
    Optional<Revision> newRevision,
    boolean enabledBefore,
    boolean enabledAfter,
    Optional<DoctorStatus> doctorStatus,
    TransitionCause cause)
    implements LifecycleTransition {

  /** Rejects nulls. */
  public LifecycleTransitionRecord {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(previousRevision, "previousRevision");
    Objects.requireNonNull(newRevision, "newRevision");
    Objects.requireNonNull(doctorStatus, "doctorStatus");
    Objects.requireNonNull(cause, "cause");
  }
}
