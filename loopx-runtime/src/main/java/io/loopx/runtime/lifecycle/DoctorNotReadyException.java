package io.loopx.runtime.lifecycle;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import org.apiguardian.api.API;

/**
 * The {@code doctor_not_ready} failure of install, upgrade, enable and rollback: the doctor packet
 * of the target revision was not ready. The message names the extension, the status, the failure
 * kind and the probe's exit code; {@link #doctor()} carries the whole packet, with its {@code
 * stderr_tail} and {@code entrypoint_lookup}.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class DoctorNotReadyException extends LoopxException {
  private static final long serialVersionUID = 1L;

  /** The packet; not serialised (a deserialised exception keeps only its message). */
  private final transient DoctorReceipt doctor;

  /** Creates the failure of {@code what} (for example {@code enable doctor}) for {@code doctor}. */
  public DoctorNotReadyException(String what, DoctorReceipt doctor) {
    super(ErrorKind.DOCTOR_NOT_READY, message(what, doctor));
    this.doctor = doctor;
  }

  /** Returns the doctor packet that was not ready. */
  public DoctorReceipt doctor() {
    return doctor;
  }

  private static String message(String what, DoctorReceipt doctor) {
    StringBuilder m =
        new StringBuilder(what)
            .append(" of `")
            .append(doctor.extensionId().value())
            .append("` is not ready: ")
            .append(doctor.status().wireName());
    StringBuilder detail = new StringBuilder();
    doctor.failure().ifPresent(f -> detail.append(f.wireName()));
    doctor
        .exitCode()
        .ifPresent(
            code ->
                detail.append(detail.length() > 0 ? ", " : "").append("exit code ").append(code));
    doctor
        .entrypointLookup()
        .ifPresent(
            lookup -> {
              detail.append("looked up `").append(lookup.name()).append("`");
              if (!lookup.searchPath().isEmpty()) {
                detail.append(" in `").append(lookup.searchPath()).append("`");
              }
            });
    if (detail.length() > 0) {
      m.append(" (").append(detail).append(")");
    }
    return m.toString();
  }
}
