package io.loopx.runtime.process;

import org.apiguardian.api.API;

/**
 * How a launch ended. The constants are declared in the first-match order of docs/contract/run.md:
 * when several facts hold for one run, the result carries the first that applies.
 *
 * <ol>
 *   <li>{@link #NOT_STARTED}: the process could not be started; nothing ran.
 *   <li>{@link #EXECUTABLE_MISMATCH}: the file the kernel executed is not the {@linkplain
 *       LaunchRequest#executable() expected} one; the process was killed before its stdin was
 *       written, and its output is discarded.
 *   <li>{@link #CANCELLED}: the calling thread was interrupted while it waited for the process;
 *       LoopX terminated the whole group (its interrupt status is set again when the launch
 *       returns).
 *   <li>{@link #MEMORY_LIMIT}: the memory limit's enforcement (the kernel's OOM killer of the
 *       call's memory cgroup) killed a process of the call; also when the run then timed out or
 *       crossed a cap.
 *   <li>{@link #TIMED_OUT}: the deadline passed before the process had exited by itself or crossed
 *       a cap. This wins even when a stream also crossed its cap afterwards (while LoopX was
 *       terminating the group).
 *   <li>{@link #STDOUT_OVER_LIMIT}: stdout exceeded its limit (at any time: also when the last
 *       bytes were drained after the process exited). Wins over a stderr overflow.
 *   <li>{@link #STDERR_OVER_LIMIT}: stderr exceeded its limit.
 *   <li>{@link #EXITED}: the process exited by itself within its bounds; the exit code is its own
 *       status, or 128+n when a signal n that LoopX did not send killed it.
 * </ol>
 *
 * <p>Only {@code EXITED} carries an exit code; only {@code NOT_STARTED} carries a start-failure
 * reason.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
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
   * group (docs/contract/worker.md#deadline).
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.2")
  CANCELLED,
  /**
   * The {@linkplain LaunchRequest#memoryLimit() memory limit}'s enforcement killed a process of the
   * call; LoopX terminated the rest (docs/contract/run.md#memory-limit).
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.3")
  MEMORY_LIMIT,
  /** The timeout elapsed first; LoopX terminated the whole process group. */
  TIMED_OUT,
  /** Stdout exceeded its limit; LoopX terminated the whole process group. */
  STDOUT_OVER_LIMIT,
  /** Stderr exceeded its limit; LoopX terminated the whole process group. */
  STDERR_OVER_LIMIT,
  /** The process exited by itself within its bounds. */
  EXITED
}
