package io.loopx.runtime.spi;

import org.apiguardian.api.API;

/**
 * How a launch ended. The constants are declared in the first-match order of docs/contract/run.md
 * (its outcome list): when several facts hold for one run, the result carries the first that
 * applies. Only {@code EXITED} carries an exit code; only {@code NOT_STARTED} carries a
 * start-failure reason.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public enum LaunchOutcome {
  /** The process could not be started (missing executable, bad working directory, ...). */
  NOT_STARTED,
  /**
   * The process ran another file than the expected one (docs/threat-model.md, P2); LoopX killed it
   * before writing its stdin and discarded its output.
   */
  EXECUTABLE_MISMATCH,
  /**
   * The calling thread was interrupted while the process ran; LoopX terminated the whole process
   * group (docs/contract/worker.md#deadline), and the interrupt status is set again when the launch
   * returns.
   */
  CANCELLED,
  /**
   * The {@linkplain LaunchRequest#memoryLimit() memory limit}'s enforcement killed a process of the
   * call, also when the run then timed out or crossed a cap; LoopX terminated the rest
   * (docs/contract/run.md#memory-limit).
   */
  MEMORY_LIMIT,
  /**
   * The timeout elapsed first; LoopX terminated the whole process group. Wins over a cap crossed
   * while the group was being terminated.
   */
  TIMED_OUT,
  /**
   * Stdout exceeded its limit (also with the last bytes drained after the exit); LoopX terminated
   * the whole process group. Wins over a stderr overflow.
   */
  STDOUT_OVER_LIMIT,
  /** Stderr exceeded its limit; LoopX terminated the whole process group. */
  STDERR_OVER_LIMIT,
  /**
   * The process exited by itself within its bounds; the exit code is its own status, or 128+n when
   * a signal n that LoopX did not send killed it.
   */
  EXITED
}
