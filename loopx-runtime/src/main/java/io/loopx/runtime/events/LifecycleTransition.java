package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.lifecycle.DoctorStatus;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One state entry written by an executed command of this {@code Loopx} (one per changed entry of a
 * compare-and-set write). Previews never emit it.
 *
 * @param operation the command ({@code install}, {@code upgrade}, {@code enable}, {@code disable},
 *     {@code rollback}, {@code doctor}, {@code uninstall}; {@code run} or {@code dispatch} for a
 *     revocation after a changed runtime)
 * @param extensionId the extension
 * @param previousRevision the active revision before (empty on install)
 * @param newRevision the active revision after (empty on uninstall)
 * @param enabledBefore the enabled bit before ({@code false} on install)
 * @param enabledAfter the enabled bit after ({@code false} on uninstall)
 * @param doctorStatus the status of the doctor packet the command evaluated for this extension, if
 *     it evaluated one
 * @param cause why the entry was written
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record LifecycleTransition(
    String operation,
    ExtensionId extensionId,
    Optional<Revision> previousRevision,
    Optional<Revision> newRevision,
    boolean enabledBefore,
    boolean enabledAfter,
    Optional<DoctorStatus> doctorStatus,
    TransitionCause cause)
    implements LoopxEvent {

  /** Rejects nulls. */
  public LifecycleTransition {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(previousRevision, "previousRevision");
    Objects.requireNonNull(newRevision, "newRevision");
    Objects.requireNonNull(doctorStatus, "doctorStatus");
    Objects.requireNonNull(cause, "cause");
  }
}
