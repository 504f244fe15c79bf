package io.loopx.runtime.internal.worker;

import java.time.Duration;

/**
 * How the worker starts of one extension have gone (docs/contract/worker.md#failure): consecutive
 * failures set the back-off before the next start, and {@link #UNAVAILABLE_AFTER} failed starts in
 * a row make the extension unavailable until a doctor of it reports ready ({@link #clear}). A
 * response from any of its workers resets both counts. Thread-safe (guarded by itself).
 */
final class StartHealth {
  /** Failed starts in a row that make the extension unavailable. */
  static final int UNAVAILABLE_AFTER = 3;

  /** The back-off before the start that follows the first failure. */
  static final Duration FIRST_BACKOFF = Duration.ofMillis(100);

  /** The longest back-off. */
  static final Duration MAX_BACKOFF = Duration.ofSeconds(1);

  private int failedStarts;
  private int failures;

  /** A worker answered a request: the starts work again. */
  synchronized void answered() {
    failedStarts = 0;
    failures = 0;
  }

  /**
   * A start failed: not started, a wrong or missing handshake, or a worker that ended before its
   * first response.
   */
  synchronized void failedStart() {
    failedStarts++;
    failures++;
  }

  /** A worker that had answered ended on its own (exited, killed from outside, broke protocol). */
  synchronized void crashed() {
    failures++;
  }

  /** Forgets every failure (a doctor of the extension reported ready). */
  synchronized void clear() {
    failedStarts = 0;
    failures = 0;
  }

  /** Returns whether {@link #UNAVAILABLE_AFTER} starts in a row failed. */
  synchronized boolean unavailable() {
    return failedStarts >= UNAVAILABLE_AFTER;
  }

  /** Returns the failed starts in a row (for messages). */
  synchronized int failedStarts() {
    return failedStarts;
  }

  /** Returns the wait before the next start: 0, then 100 ms doubling per failure up to 1 s. */
  synchronized Duration backoff() {
    return backoff(failures);
  }

  static Duration backoff(int failures) {
    if (failures <= 0) {
      return Duration.ZERO;
    }
    long millis = FIRST_BACKOFF.toMillis() << Math.min(failures - 1, 10);
    return Duration.ofMillis(Math.min(millis, MAX_BACKOFF.toMillis()));
  }
}
