package io.loopx.runtime.events;

import java.util.Locale;
import org.apiguardian.api.API;

/** Why a {@link LifecycleTransition} was written. */
@API(status = API.Status.STABLE, since = "1.0")
public enum TransitionCause {
  /** The executed command's own effect (install, enable, a recorded proof, uninstall, ...). */
  COMMAND,
  /** A probe that was not ready revoked the identity it probed (enable, doctor). */
  FAILED_PROBE,
  /** A run or dispatch found its runtime changed during the call and revoked its identity. */
  CHANGED_DURING_CALL;

  /** Returns the snake_case name, e.g. {@code failed_probe}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
