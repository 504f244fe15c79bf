package io.loopx.runtime.internal.process;

import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Supervises one started call of {@link OsProcessLauncher} to its result (docs/process.md): checks
 * the executed file before stdin is written, feeds stdin (up to {@code PIPE_BUF} directly, more
 * from a task of its own), drains stdout and stderr concurrently up to their caps, waits for the
 * first of the leader's exit, a crossed cap, the timeout or an interrupt, terminates the cgroup or
 * process group, joins its tasks within the drain timeout and classifies the result in {@link
 * LaunchOutcome}'s order.
 */
final class CallSupervisor {
  /** POSIX {@code PIPE_BUF} on Linux; a pipe holds at least one page. */
  private static final int PIPE_BUF = 4096;

  private final Duration terminationGrace;
  private final Duration drainTimeout;
  private final Optional<Path> killCommand;
  private final ExecutedFile executedFile;

  CallSupervisor(
      Duration terminationGrace,
      Duration drainTimeout,
      Optional<Path> killCommand,
      ExecutedFile executedFile) {
    this.terminationGrace = terminationGrace;
    this.drainTimeout = drainTimeout;
    this.killCommand = killCommand;
    this.executedFile = executedFile;
  }

  /**
   * Runs {@code running} to its end and returns its result; the interrupt status of the calling
   * thread is restored when it was interrupted meanwhile.
   */
  LaunchResult supervise(ContainedStart.Started running, LaunchRequest request, long started) {
    Process process = running.process();
    Optional<CallCgroup> cgroup = running.cgroup();
    RunSignals signals = new RunSignals();
    StreamDrain stdout =
        new StreamDrain(process.getInputStream(), request.stdoutLimit(), signals::overLimit);
    StreamDrain stderr =
        new StreamDrain(process.getErrorStream(), request.stderrLimit(), signals::overLimit);
    List<RunnerTasks.Task> tasks = new ArrayList<>();
    tasks.add(RunnerTasks.start(stdout));
    tasks.add(RunnerTasks.start(stderr));
    ExecutedFile.Verdict verdict = running.executed(executedFile, request, started);
    if (verdict instanceof ExecutedFile.Verdict.Mismatch) {
      return mismatch(process, tasks, started, cgroup);
    }
    if (request.stdinLength() <= PIPE_BUF) {
      // Fits the fresh, empty pipe in one atomic write, so it cannot block: no task needed.
      LaunchSupport.feed(process.getOutputStream(), request.stdin());
    } else {
      byte[] input = request.stdin();
      OutputStream pipe = process.getOutputStream();
      tasks.add(RunnerTasks.start(() -> LaunchSupport.feed(pipe, input)));
    }
    tasks.add(
        RunnerTasks.start(
            () -> {
              LaunchSupport.awaitExit(process);
              signals.exited();
            }));

    RunSignals.Stop stop = signals.await(started, LaunchSupport.saturatedNanos(request.timeout()));
    boolean killedForMemory = false;
    if (cgroup.isPresent()) {
      cgroup.get().terminate(process, terminationGrace, stop != RunSignals.Stop.EXITED);
      // A SIGKILL that LoopX did not send: only after an exit by itself.
      boolean leaderKilled =
          stop == RunSignals.Stop.EXITED && !process.isAlive() && process.exitValue() == 128 + 9;
      killedForMemory = cgroup.get().killedForMemory(leaderKilled);
    } else {
      new ProcessGroup(process, killCommand).terminate(terminationGrace, started);
    }

    long joinStart = System.nanoTime();
    for (RunnerTasks.Task task : tasks) {
      task.join(drainTimeout.toNanos() - (System.nanoTime() - joinStart));
    }
    // Close the read ends ourselves. The stdin pipe is closed by its writer task only: closing
    // it here could block behind a write that an escaped reader never drains.
    LaunchSupport.closeQuietly(process.getInputStream());
    LaunchSupport.closeQuietly(process.getErrorStream());

    Duration duration = Duration.ofNanos(System.nanoTime() - started);
    LaunchResult result;
    if (stop == RunSignals.Stop.CANCELLED) {
      result = stopped(LaunchOutcome.CANCELLED, stdout, stderr, duration);
    } else if (killedForMemory) {
      result = stopped(LaunchOutcome.MEMORY_LIMIT, stdout, stderr, duration);
    } else if (stop == RunSignals.Stop.DEADLINE) {
      result = stopped(LaunchOutcome.TIMED_OUT, stdout, stderr, duration);
    } else if (stdout.crossed()) {
      result = stopped(LaunchOutcome.STDOUT_OVER_LIMIT, stdout, stderr, duration);
    } else if (stderr.crossed()) {
      result = stopped(LaunchOutcome.STDERR_OVER_LIMIT, stdout, stderr, duration);
    } else {
      // Only an exit of the leader ends the wait without a deadline or a crossed cap.
      result = LaunchResult.exited(process.exitValue(), stdout.bytes(), stderr.bytes(), duration);
    }
    if (signals.interrupted()) {
      Thread.currentThread().interrupt();
    }
    return result;
  }

  /**
   * Ends a process that executes another file than the expected one: killed at once, its stdin
   * never written, its output discarded.
   */
  private LaunchResult mismatch(
      Process process, List<RunnerTasks.Task> tasks, long started, Optional<CallCgroup> cgroup) {
    if (cgroup.isPresent()) {
      cgroup.get().terminate(process, Duration.ZERO, true);
    } else {
      new ProcessGroup(process, killCommand).terminate(Duration.ZERO, started);
    }
    LaunchSupport.closeQuietly(process.getOutputStream());
    long joinStart = System.nanoTime();
    for (RunnerTasks.Task task : tasks) {
      task.join(drainTimeout.toNanos() - (System.nanoTime() - joinStart));
    }
    LaunchSupport.closeQuietly(process.getInputStream());
    LaunchSupport.closeQuietly(process.getErrorStream());
    return LaunchResult.stopped(
        LaunchOutcome.EXECUTABLE_MISMATCH,
        new byte[0],
        new byte[0],
        Duration.ofNanos(System.nanoTime() - started));
  }

  private static LaunchResult stopped(
      LaunchOutcome outcome, StreamDrain stdout, StreamDrain stderr, Duration duration) {
    return LaunchResult.stopped(outcome, stdout.bytes(), stderr.bytes(), duration);
  }
}
