package io.loopx.runtime;

/**
 * Whether a command only previews or takes effect. A preview changes nothing on disk and runs no
 * provider code; its receipt predicts the execute.
 */
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
