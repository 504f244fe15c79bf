package io.loopx.runtime.internal.process;

/**
 * The events that end the waiting phase of a run: the leader exited, a stream crossed its cap, the
 * deadline passed, or the waiting thread was interrupted (remembered for the caller to re-assert
 * once the run is terminated).
 */
final class RunSignals {

  /** Why the waiting phase ended. */
  enum Stop {
    EXITED,
    OVER_LIMIT,
    DEADLINE,
    CANCELLED
  }

  private boolean exited;
  private boolean overLimit;
  private boolean interrupted;

  synchronized void exited() {
    exited = true;
    notifyAll();
  }

  synchronized void overLimit() {
    overLimit = true;
    notifyAll();
  }

  /**
   * Waits until an event or until {@code timeoutNanos} have passed since {@code startNanos} (both
   * in {@link System#nanoTime()} terms), or until the thread is interrupted. A cap crossing wins
   * over an exit seen in the same wake-up (the caller classifies by the streams' own flags anyway).
   */
  synchronized Stop await(long startNanos, long timeoutNanos) {
    while (true) {
      if (overLimit) {
        return Stop.OVER_LIMIT;
      }
      if (exited) {
        return Stop.EXITED;
      }
      long remaining = timeoutNanos - (System.nanoTime() - startNanos);
      if (remaining <= 0) {
        return Stop.DEADLINE;
      }
      try {
        long millis = remaining / 1_000_000;
        int nanos = (int) (remaining % 1_000_000);
        wait(millis, nanos);
      } catch (InterruptedException e) {
        interrupted = true;
        return Stop.CANCELLED;
      }
    }
  }

  /** Returns whether the waiting thread was interrupted while waiting. */
  synchronized boolean interrupted() {
    return interrupted;
  }
}
