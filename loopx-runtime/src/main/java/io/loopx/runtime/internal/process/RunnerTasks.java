package io.loopx.runtime.internal.process;

import com.google.common.util.concurrent.Uninterruptibles;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the runner's helper work runs (pipe drains, stdin feeding, the wait for the leader's exit):
 * one cached pool of daemon threads named {@link OsProcessLauncher#THREAD_NAME_PREFIX}{@code N},
 * shared by all launchers, whose idle threads end after {@link #KEEP_ALIVE_SECONDS}. Starting a
 * thread costs far more than handing work to an idle one, and a launch needs two to four of them.
 * Counts the tasks still running so that tests can prove none outlives its launch.
 */
final class RunnerTasks {
  static final long KEEP_ALIVE_SECONDS = 5;

  private static final AtomicInteger RUNNING = new AtomicInteger();
  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final ThreadPoolExecutor POOL =
      new ThreadPoolExecutor(
          0,
          Integer.MAX_VALUE,
          KEEP_ALIVE_SECONDS,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          body -> {
            Thread thread =
                new Thread(body, OsProcessLauncher.THREAD_NAME_PREFIX + THREADS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
          });

  private RunnerTasks() {}

  /** One started task. */
  static final class Task {
    private final CountDownLatch done = new CountDownLatch(1);

    /** Waits up to {@code nanos} for the task to end, ignoring interrupts; true if it ended. */
    boolean join(long nanos) {
      return Uninterruptibles.awaitUninterruptibly(done, Math.max(nanos, 0), TimeUnit.NANOSECONDS);
    }
  }

  /** Runs {@code body} on a pool thread. */
  static Task start(Runnable body) {
    Task task = new Task();
    RUNNING.incrementAndGet();
    POOL.execute(
        () -> {
          try {
            body.run();
          } finally {
            RUNNING.decrementAndGet();
            task.done.countDown();
          }
        });
    return task;
  }

  /** Returns how many tasks have started and not yet ended. */
  static int running() {
    return RUNNING.get();
  }
}
