package io.loopx.runtime.lifecycle;

import io.loopx.runtime.Mode;
import io.loopx.runtime.Receipt;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The receipt of {@code Loopx.doctorAll} ({@code loopx_extension_doctor_batch_v0}): the doctor
 * packets of the enabled extensions, by id. In a preview nothing is probed: the status is {@code
 * probe_required} if any extension is enabled, else {@code ready}; executed, it is {@code ready} or
 * {@code blocked} (then {@link #ok()} is false).
 *
 * <p>Implemented by LoopX only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface DoctorAllReceipt extends Receipt {
  /** Returns whether the probes were executed (the wire's {@code execute}). */
  Mode mode();

  /** Returns the packets of the enabled extensions, by id. */
  List<DoctorReceipt> packets();

  /** Returns {@code ready}, {@code blocked} or {@code probe_required}. */
  String status();

  /** Returns the number of executed packets whose status is ready. */
  int verifiedCount();

  /** Returns the number of executed packets that are not ready. */
  int blockedCount();
}
