package io.loopx.runtime;

import org.apiguardian.api.API;

/**
 * Whether a command only previews or takes effect. A preview changes nothing on disk and runs no
 * provider code; its receipt predicts the execute.
 */
@API(status = API.Status.STABLE, since = "1.0")
public enum Mode {
  /** Plan and report; change nothing, run nothing. */
  PREVIEW,
  /** Probe, write and run as the command requires. */
  EXECUTE;

  /** Returns whether this is {@link #EXECUTE}. */
  public boolean executes() {
    return this == EXECUTE;
  }
}
