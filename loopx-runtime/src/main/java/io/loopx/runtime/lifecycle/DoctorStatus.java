package io.loopx.runtime.lifecycle;

import java.util.Locale;
import org.apiguardian.api.API;

/** The doctor ladder, in order of precedence (docs/contract/doctor.md). */
@API(status = API.Status.STABLE, since = "1.0")
public enum DoctorStatus {
  /** Doctor of a disabled extension: nothing probed. */
  DISABLED,
  /** The snapshot's {@code requires_loopx_api} rejects this runtime. */
  API_INCOMPATIBLE,
  /** {@code doctor_args} is empty. */
  DOCTOR_NOT_CONFIGURED,
  /** The runtime cannot be resolved (launcher, interpreter or class missing). */
  ENTRYPOINT_MISSING,
  /**
   * The runtime resolves to something LoopX refuses to identify: a {@code #!} line over the
   * kernel's limit, a non-UTF-8 interpreter path, options passed to {@code env}, or an interpreter
   * that is itself a script.
   */
  ENTRYPOINT_UNSUPPORTED,
  /** Resolvable, but no probe was executed (a preview, also when a fresh proof exists). */
  PROBE_REQUIRED,
  /** An executed probe failed. */
  PROVIDER_UNAVAILABLE,
  /** An executed probe succeeded. */
  READY;

  /** Returns the wire word, e.g. {@code probe_required}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
