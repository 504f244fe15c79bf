package io.loopx.runtime.lifecycle;

import java.util.Locale;
import org.apiguardian.api.API;

/** Why a doctor status is not ready, where docs/contract/doctor.md names a {@code failure_kind}. */
@API(status = API.Status.STABLE, since = "1.0")
public enum DoctorFailure {
  /** {@code doctor_args} is empty. */
  DOCTOR_NOT_CONFIGURED,
  /** The probe could not be started or did not finish in time. */
  PROBE_EXECUTION_FAILED,
  /** The probe exited with a non-zero status. */
  PROBE_NONZERO_EXIT,
  /** The runtime identity differed before and after the probe. */
  ENTRYPOINT_CHANGED_DURING_PROBE,
  /**
   * The probe passed, but a warm worker of the runtime (it declares {@code [runtime.worker]}) could
   * not be started or did not write a valid handshake within {@code timeout_seconds}
   * (docs/contract/worker.md#doctor).
   */
  WORKER_HANDSHAKE_FAILED,
  /**
   * The manifest's {@code runtime.access} names a root the host does not map ({@code
   * Loopx.Builder.accessRoot}); found before anything starts, in previews too, and no probe runs
   * (docs/contract/doctor.md#probe).
   */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  ACCESS_ROOT_UNKNOWN;

  /** Returns the wire word, e.g. {@code probe_nonzero_exit}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
