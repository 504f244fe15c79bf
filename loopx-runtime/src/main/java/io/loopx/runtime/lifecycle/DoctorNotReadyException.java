package io.loopx.runtime.lifecycle;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import org.apiguardian.api.API;

/**
 * The {@code doctor_not_ready} failure of install, upgrade, enable and rollback: the doctor packet
 * of the target revision was not ready. The message names the extension, the status, the failure
 * kind and the probe's exit code; {@link #doctor()} carries the whole packet (its JSON also has the
 * {@code entrypoint_lookup}).
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class DoctorNotReadyException extends LoopxException {
  private static final long serialVersionUID = 1L;

  /** The packet; not serialised (a deserialised exception keeps only its message). */
  private final transient DoctorReceipt doctor;

  /** Creates the failure with {@code message} for {@code doctor}; raised by LoopX only. */
  public DoctorNotReadyException(String message, DoctorReceipt doctor) {
    super(ErrorKind.DOCTOR_NOT_READY, message);
    this.doctor = doctor;
  }

  /** Returns the doctor packet that was not ready. */
  public DoctorReceipt doctor() {
    return doctor;
  }
}
