package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorStatus;
import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The doctor packet an executed command evaluated (install, upgrade, enable, rollback, doctor, one
 * per extension of a doctor batch), emitted before the transitions of the same command's write.
 * Implemented by LoopX only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public non-sealed interface DoctorResult extends LoopxEvent {

  /** Returns the command. */
  String operation();

  /** Returns the extension. */
  ExtensionId extensionId();

  /** Returns the version the packet is for. */
  String version();

  /** Returns the packet's status. */
  DoctorStatus status();

  /** Returns the packet's {@code failure_kind}. */
  Optional<DoctorFailure> failure();

  /**
   * Returns the wall time of evaluating it: resolving and hashing the runtime, the probe process
   * when one ran, and hashing the runtime again after it.
   */
  Duration duration();
}
