package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorStatus;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The doctor packet an executed command evaluated (install, upgrade, enable, rollback, doctor, one
 * per extension of a doctor batch), emitted before the transitions of the same command's write.
 *
 * @param operation the command
 * @param extensionId the extension
 * @param version the version the packet is for
 * @param status the packet's status
 * @param failure the packet's {@code failure_kind}
 * @param duration the wall time of evaluating it: resolving and hashing the runtime, the probe
 *     process when one ran, and hashing the runtime again after it
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record DoctorResult(
    String operation,
    ExtensionId extensionId,
    String version,
    DoctorStatus status,
    Optional<DoctorFailure> failure,
    Duration duration)
    implements LoopxEvent {

  /** Rejects nulls. */
  public DoctorResult {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(duration, "duration");
  }
}
