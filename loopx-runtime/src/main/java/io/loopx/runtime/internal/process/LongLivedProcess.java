package io.loopx.runtime.internal.process;

import io.loopx.runtime.internal.isolation.Bubblewrap;
import io.loopx.runtime.spi.LaunchRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apiguardian.api.API;

/**
 * A provider process that outlives one call (a warm worker, docs/contract/worker.md), contained
 * like a one-shot call of {@link OsProcessLauncher}: its own cgroup (with the pids limit) or
 * process group, started through {@code setsid}, the executed file checked before anything is
 * written to it, and the whole tree killed by {@link #terminate}.
 *
 * <p>Host death: where util-linux {@code setpriv} exists, the process is started as {@code setpriv
 * --pdeathsig KILL -- setsid -w -- PROGRAM ...}, so the kernel sends it SIGKILL when the host dies,
 * SIGKILL included. The kernel ties that signal to the thread that forked the process, so every
 * worker is forked by one spawner thread that lives as long as the JVM. A descendant the worker
 * forks itself does not inherit the signal: where the worker has a cgroup, a {@link Keeper} started
 * before it (outside the cgroup and the parent-death chain) empties and removes the cgroup when the
 * host dies; without a cgroup only its own reaction to the closed pipes ends it.
 *
 * <p>Stdout is read by the caller; stderr is drained by a thread of its own into a bounded tail.
 * Thread-safe.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class LongLivedProcess {
  /** The most bytes of stderr kept (the last ones). */
  public static final int STDERR_KEEP = 4096;

  private static final ExecutorService SPAWNER =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "loopx-worker-spawner");
            t.setDaemon(true);
            return t;
          });

  private static final Optional<Path> SETPRIV = LaunchSupport.findTool("setpriv");

  /** How long {@link #terminate} waits for the keeper to see that the cgroup is gone and exit. */
  private static final Duration KEEPER_PATIENCE = Duration.ofSeconds(2);

  private final Process process;
  private final Optional<CallCgroup> cgroup;
  private final Optional<Keeper> keeper;
  private final Optional<Path> killCommand;
  private final Duration grace;
  private final long started;
  private final byte[] tail = new byte[STDERR_KEEP];
  private long tailWritten;
  private boolean terminated;

  private LongLivedProcess(
      Process process,
      Optional<CallCgroup> cgroup,
      Optional<Keeper> keeper,
      Optional<Path> killCommand,
      Duration grace,
      long started) {
    this.process = process;
    this.cgroup = cgroup;
    this.keeper = keeper;
    this.killCommand = killCommand;
    this.grace = grace;
    this.started = started;
  }

  /** How a start ended. */
  public sealed interface Start {
    /** The process runs and executes the expected file (or that could not be decided). */
    record Running(LongLivedProcess process) implements Start {}

    /**
     * The process could not be started.
     *
     * @param reason why
     */
    record NotStarted(String reason) implements Start {}

    /**
     * The process executed other bytes than the hashed file; it was killed before anything was
     * written to it.
     *
     * @param reason what was found
     */
    record Mismatch(String reason) implements Start {}
  }

  /** Returns whether host-death protection ({@code setpriv --pdeathsig}) is available. */
  public static boolean diesWithHost() {
    return SETPRIV.isPresent();
  }

  /**
   * Starts {@code request}'s argv (its stdin, stdout limit and stderr limit are ignored) on the
   * spawner thread.
   */
  static Start start(
      LaunchRequest request,
      Enclosure enclosure,
      int pidsLimit,
      Optional<Path> setsid,
      Optional<List<String>> sandbox,
      Optional<Path> killCommand,
      Duration grace) {
    Future<Start> future =
        SPAWNER.submit(
            () -> spawn(request, enclosure, pidsLimit, setsid, sandbox, killCommand, grace));
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return future.get();
        } catch (InterruptedException e) {
          interrupted = true; // the start is short and bounded; finish it so nothing leaks
        }
      }
    } catch (ExecutionException e) {
      return new Start.NotStarted("cannot start the worker: " + e.getCause());
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static Start spawn(
      LaunchRequest request,
      Enclosure enclosure,
      int pidsLimit,
      Optional<Path> setsid,
      Optional<List<String>> sandbox,
      Optional<Path> killCommand,
      Duration grace) {
    long started = System.nanoTime();
    if (setsid.isEmpty()) {
      return new Start.NotStarted(ContainedStart.NO_SETSID);
    }
    Path directory = Path.of("").toAbsolutePath();
    if (request.workingDirectory().isPresent()) {
      directory = request.workingDirectory().get().toAbsolutePath();
    }
    List<String> prefix =
        SETPRIV.isPresent()
            ? List.of(SETPRIV.get().toString(), "--pdeathsig", "KILL", "--")
            : List.of();
    ContainedStart.Result start =
        ContainedStart.start(
            request,
            directory,
            prefix,
            setsid.get(),
            sandbox,
            enclosure,
            pidsLimit,
            "worker's",
            Optional.of(KEEPER_PATIENCE));
    if (start instanceof ContainedStart.NotStarted notStarted) {
      return new Start.NotStarted(notStarted.reason());
    }
    ContainedStart.Started running = (ContainedStart.Started) start;
    LongLivedProcess worker =
        new LongLivedProcess(
            running.process(), running.cgroup(), running.keeper(), killCommand, grace, started);
    if (LaunchRequestRecord.stampOf(request).isPresent()) {
      List<Path> stages = new ArrayList<>();
      stages.add(Path.of(System.getProperty("java.home"), "lib", "jspawnhelper"));
      for (String tool : List.of("setsid", "sh", "env", "setpriv")) {
        LaunchSupport.findTool(tool).ifPresent(stages::add);
      }
      stages.add(Bubblewrap.SETPRIV);
      stages.add(Bubblewrap.BWRAP);
      ExecutedFile.Verdict verdict = running.executed(ExecutedFile.of(stages), request, started);
      if (verdict instanceof ExecutedFile.Verdict.Mismatch mismatch) {
        worker.terminate(Duration.ZERO);
        return new Start.Mismatch(mismatch.reason());
      }
    }
    worker.drainStderr();
    return new Start.Running(worker);
  }

  private void drainStderr() {
    InputStream err = process.getErrorStream();
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[1024];
              try {
                int n;
                while ((n = err.read(buffer)) >= 0) {
                  keep(buffer, n);
                }
              } catch (IOException e) {
                // The process ended or was killed: the tail so far stays.
              }
            },
            "loopx-worker-stderr-" + process.pid());
    t.setDaemon(true);
    t.start();
  }

  private synchronized void keep(byte[] buffer, int n) {
    for (int i = 0; i < n; i++) {
      tail[(int) (tailWritten++ % STDERR_KEEP)] = buffer[i];
    }
  }

  /** Returns the last at most {@value #STDERR_KEEP} bytes the process wrote to stderr. */
  public synchronized byte[] stderrTail() {
    int size = (int) Math.min(tailWritten, STDERR_KEEP);
    byte[] out = new byte[size];
    long from = tailWritten - size;
    for (int i = 0; i < size; i++) {
      out[i] = tail[(int) ((from + i) % STDERR_KEEP)];
    }
    return out;
  }

  /** Returns the pid of the worker's {@link Keeper}, when it has a cgroup. */
  OptionalLong keeperPid() {
    return keeper.isPresent() ? OptionalLong.of(keeper.get().pid()) : OptionalLong.empty();
  }

  /** Returns the process id of the worker (the leader of its tree). */
  public long pid() {
    return process.pid();
  }

  /** Returns the worker's stdin. */
  public OutputStream stdin() {
    return process.getOutputStream();
  }

  /** Returns the worker's stdout. */
  public InputStream stdout() {
    return process.getInputStream();
  }

  /**
   * Returns whether the memory limit's enforcement killed a process of the worker's tree (read from
   * its cgroup's memory controller, docs/contract/run.md#memory-limit); false once {@link
   * #terminate} removed the cgroup, and without a memory limit.
   */
  public synchronized boolean killedForMemory() {
    if (terminated || cgroup.isEmpty()) {
      return false;
    }
    boolean leaderKilled = !process.isAlive() && process.exitValue() == 128 + 9;
    return cgroup.get().killedForMemory(leaderKilled);
  }

  /** Returns the memory limit applied to the worker's tree in bytes, empty when none applies. */
  public OptionalLong memoryLimit() {
    return cgroup.map(CallCgroup::memoryLimit).orElse(OptionalLong.empty());
  }

  /** Returns whether {@link #terminate} has completed: nothing of the tree is left. */
  public synchronized boolean terminated() {
    return terminated;
  }

  /** Returns whether the leader is still running. */
  public boolean alive() {
    return process.isAlive();
  }

  /**
   * Waits up to {@code patience} for the leader to exit; returns its exit code (128 plus the signal
   * number when a signal ended it) if it did.
   */
  public OptionalInt awaitExit(Duration patience) {
    try {
      if (process.waitFor(patience.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS)) {
        return OptionalInt.of(process.exitValue());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return OptionalInt.empty();
  }

  /**
   * Closes stdin (the worker's cue to exit), waits up to {@code patience} for the leader to exit,
   * then terminates whatever is left of the tree.
   */
  public void stop(Duration patience) {
    LaunchSupport.closeQuietly(process.getOutputStream());
    try {
      process.waitFor(patience.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    terminate(grace);
  }

  /**
   * Terminates the whole tree (SIGTERM, up to {@code termGrace}, then SIGKILL until nothing is
   * left) and removes its cgroup; idempotent. Returns when nothing of it remains.
   */
  public synchronized void terminate(Duration termGrace) {
    if (terminated) {
      return;
    }
    terminated = true;
    if (cgroup.isPresent()) {
      cgroup.get().terminate(process, termGrace, true);
      cgroup.get().remove();
      keeper.ifPresent(k -> k.release(KEEPER_PATIENCE));
    } else {
      new ProcessGroup(process, killCommand).terminate(termGrace, started);
    }
    LaunchSupport.closeQuietly(process.getOutputStream());
    LaunchSupport.closeQuietly(process.getInputStream());
    LaunchSupport.closeQuietly(process.getErrorStream());
  }
}
