package io.loopx.runtime.internal.process;

import io.loopx.api.InvalidValueException;
import io.loopx.runtime.process.Containment;
import io.loopx.runtime.process.LaunchOutcome;
import io.loopx.runtime.process.LaunchRequest;
import io.loopx.runtime.process.LaunchResult;
import io.loopx.runtime.process.ProcessLauncher;
import java.io.OutputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The production {@link ProcessLauncher}: runs operating-system processes on Linux, each call
 * contained so that nothing it starts outlives it, with bounded pipes, a timeout and whole-tree
 * termination. Immutable and thread-safe; one instance can supervise many processes at once.
 *
 * <h2>Containment</h2>
 *
 * Chosen once per JVM ({@link #containment()}, docs/process.md): a cgroup per call where the JVM's
 * own cgroup is writable ({@link CallCgroup}: cgroup v2 with {@code cgroup.kill}, or v1 {@code
 * freezer} + {@code pids}; the child is inside before it can fork, so forks, pid changes, {@code
 * setpgid} and {@code setsid} cannot leave it; a {@link Builder#pidsLimit pids limit} per call; the
 * request's {@link LaunchRequest#memoryLimit() memory limit} where a memory controller is writable,
 * see {@link #limitsMemory()}), else the provider's process group ({@link ProcessGroup}, signalled
 * with {@code kill(-pgid)}).
 *
 * <h2>Process group</h2>
 *
 * Java cannot call {@code setpgid}/{@code setsid}, so the program is started as {@code setsid -w --
 * PROGRAM ARGS...} (util-linux), also inside a cgroup. The JVM's child is never a group leader, so
 * {@code setsid} calls {@code setsid(2)} and execs the program in place: the provider's pid is its
 * process-group id and session id, and everything it forks stays in that group unless it leaves on
 * purpose.
 *
 * <p>Limits of the process-group fallback: a descendant that calls {@code setsid} itself (or
 * double-forks and then does so) is in another session and group and escapes termination; a
 * descendant that only changes its group with {@code setpgid} stays in the session, is found by a
 * {@code /proc} scan and its group is signalled too. An escaped process that keeps a pipe open can
 * also keep one of this launcher's drain tasks running after the call (the call itself still
 * returns within its bounds, see below).
 *
 * <h2>Run</h2>
 *
 * <ol>
 *   <li>The program is resolved like {@code execvp} would (see {@link LaunchRequest#argv()}); a
 *       missing or non-executable program, a working directory that is not a directory on the
 *       default file system, a missing {@code setsid}, an argument or variable the platform
 *       encoding cannot represent, or a failing {@link ProcessBuilder#start()} give {@link
 *       LaunchOutcome#NOT_STARTED}. (Should the program vanish between this check and the exec,
 *       {@code setsid} reports it on stderr and exits 126 or 127, which is then an {@code EXITED}
 *       result.)
 *   <li>Stdin is written and then closed: up to 4,096 bytes ({@code PIPE_BUF}, which always fits a
 *       fresh pipe) directly, more from a task of its own, so a provider that never reads it cannot
 *       block the run; a broken pipe is ignored.
 *   <li>Stdout and stderr are drained concurrently by two tasks, keeping at most limit+1 bytes
 *       each; the first crossing of a cap stops the run.
 *   <li>The run stops when the leader exits, a cap is crossed, or the timeout passes. Then the
 *       cgroup or group is terminated: after a timeout or a crossed cap, SIGTERM to every member,
 *       the termination grace (default 1 s), then SIGKILL; after the leader exited by itself, the
 *       same for whatever is left (nothing is signalled when the kernel shows nothing left). A
 *       call's cgroup is then removed.
 *   <li>The drain, stdin and exit tasks are joined within the drain timeout (default 1 s) and the
 *       pipes are closed. The result is classified in {@link LaunchOutcome}'s order.
 * </ol>
 *
 * <h2>Signalling</h2>
 *
 * In a cgroup: SIGTERM to every member, then the cgroup's atomic kill until it is empty. In the
 * process group: {@code kill -TERM -- -PGID}, then {@code -KILL}, which the kernel applies
 * atomically to every member and whose answer (no process reached) decides that the group is empty;
 * members found in {@code /proc} outside the group are signalled as groups and through {@link
 * ProcessHandle}, which never hits a recycled pid.
 *
 * <h2>Encoding</h2>
 *
 * Stdin, stdout and stderr are bytes and never decoded here (see {@link StrictUtf8}). Arguments,
 * environment and paths are encoded by the JVM in the platform encoding; a value that encoding
 * cannot represent is refused (run the host under a UTF-8 locale to pass any text).
 *
 * <p>Interrupting the calling thread while it waits for the process cancels the launch: the cgroup
 * or group is terminated as after a timeout and the result is {@link LaunchOutcome#CANCELLED}; a
 * thread interrupted before the launch starts nothing (also {@code CANCELLED}). The interrupt
 * status is restored when the call returns.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class OsProcessLauncher implements ProcessLauncher {

  /** The default SIGTERM-to-SIGKILL grace: 1 second (docs/contract/run.md). */
  public static final Duration DEFAULT_TERMINATION_GRACE = Duration.ofSeconds(1);

  /** The default bound for joining the drain threads after termination: 1 second. */
  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(1);

  /**
   * The prefix of the name of every thread that runs this launcher's tasks: one pool of daemon
   * threads shared by all launchers; an idle one ends after 5 seconds.
   */
  public static final String THREAD_NAME_PREFIX = "loopx-process-";

  private static final Duration MAX_BOUND = Duration.ofMinutes(1);

  /** POSIX {@code PIPE_BUF} on Linux; a pipe holds at least one page. */
  private static final int PIPE_BUF = 4096;

  /**
   * The default most tasks (processes and threads) one call may have at once where a cgroup
   * contains it: 512. Enough for a JVM provider (a few dozen threads) and its children; small
   * enough that a fork bomb stops long before the machine's pid space is exhausted.
   */
  public static final int DEFAULT_PIDS_LIMIT = 512;

  /** The largest accepted pids limit: Linux's largest {@code pid_max}. */
  public static final int MAX_PIDS_LIMIT = 4_194_304;

  /**
   * The host's default memory limit of one provider call or worker process: 1 GiB
   * (docs/contract/run.md#memory-limit).
   */
  public static final long DEFAULT_MEMORY_LIMIT = 1L << 30;

  /**
   * The smallest accepted host memory limit: 16 MiB (the manifest's smallest {@code memory_mb}).
   */
  public static final long MIN_MEMORY_LIMIT = 16L << 20;

  /** The largest accepted host memory limit: 64 GiB (the manifest's largest {@code memory_mb}). */
  public static final long MAX_MEMORY_LIMIT = 65_536L << 20;

  private final Duration terminationGrace;
  private final Duration drainTimeout;
  private final Optional<Path> setsidCommand;
  private final Optional<Path> killCommand;
  private final Enclosure enclosure;
  private final int pidsLimit;
  private final ExecutedFile executedFile;

  private OsProcessLauncher(Builder builder) {
    this.terminationGrace = builder.terminationGrace;
    this.drainTimeout = builder.drainTimeout;
    this.setsidCommand = builder.setsidCommand;
    this.killCommand = builder.killCommand;
    this.enclosure = builder.enclosure.orElseGet(Cgroups::system);
    this.pidsLimit = builder.pidsLimit;
    this.executedFile = builder.executedFile.orElseGet(ExecutedFile::forThisJvm);
  }

  /** Returns a launcher with the default grace and drain timeout. */
  public static OsProcessLauncher create() {
    return builder().build();
  }

  /** Returns a builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns the SIGTERM-to-SIGKILL grace. */
  public Duration terminationGrace() {
    return terminationGrace;
  }

  /** Returns the bound for joining the drain threads after termination. */
  public Duration drainTimeout() {
    return drainTimeout;
  }

  /** Returns the most tasks one call may have at once where a cgroup with pids contains it. */
  public int pidsLimit() {
    return pidsLimit;
  }

  /** Returns how this launcher contains every call: chosen once per JVM (see the class doc). */
  @Override
  public Optional<Containment> containment() {
    return Optional.of(enclosure.kind());
  }

  /**
   * Returns whether calls get their {@link LaunchRequest#memoryLimit()}: where the chosen cgroup
   * mechanism has a writable memory controller (cgroup v2 {@code memory.max}, or the v1 {@code
   * memory} hierarchy).
   */
  @Override
  public boolean limitsMemory() {
    return enclosure.limitsMemory();
  }

  @Override
  public LaunchResult launch(LaunchRequest request) {
    Objects.requireNonNull(request, "request");
    long started = System.nanoTime();
    if (Thread.currentThread().isInterrupted()) {
      return LaunchResult.stopped(
          LaunchOutcome.CANCELLED, new byte[0], new byte[0], Duration.ofNanos(0));
    }
    Path directory;
    if (request.workingDirectory().isPresent()) {
      Path given = request.workingDirectory().get();
      if (given.getFileSystem() != FileSystems.getDefault()) {
        return notStarted(
            "working directory `" + given + "` is not on the default file system", started);
      }
      if (!Files.isDirectory(given)) {
        return notStarted("working directory `" + given + "` is not a directory", started);
      }
      directory = given.toAbsolutePath();
    } else {
      try {
        directory = Path.of("").toAbsolutePath();
      } catch (InvalidPathException | SecurityException e) {
        return notStarted("the host's working directory cannot be resolved", started);
      }
    }
    if (setsidCommand.isEmpty()) {
      return notStarted(ContainedStart.NO_SETSID, started);
    }
    ContainedStart.Result start =
        ContainedStart.start(
            request,
            directory,
            List.of(),
            setsidCommand.get(),
            enclosure,
            pidsLimit,
            "call's",
            Optional.empty());
    if (start instanceof ContainedStart.NotStarted notStarted) {
      return notStarted(notStarted.reason(), started);
    }
    ContainedStart.Started running = (ContainedStart.Started) start;
    try {
      return supervise(running, request, started);
    } finally {
      running.cgroup().ifPresent(CallCgroup::remove);
    }
  }

  /**
   * Starts {@code request}'s argv as a long-lived worker (docs/contract/worker.md), contained like
   * a call: its own cgroup with this launcher's pids limit and the request's memory limit, or its
   * own process group; the executed file checked before anything is written to it. Its stdin, caps
   * and timeout are the caller's business.
   */
  public LongLivedProcess.Start startLongLived(LaunchRequest request) {
    Objects.requireNonNull(request, "request");
    return LongLivedProcess.start(
        request, enclosure, pidsLimit, setsidCommand, killCommand, terminationGrace);
  }

  private LaunchResult supervise(
      ContainedStart.Started running, LaunchRequest request, long started) {
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

  private static LaunchResult notStarted(String reason, long started) {
    return LaunchResult.notStarted(reason, Duration.ofNanos(System.nanoTime() - started));
  }

  @Override
  public String toString() {
    return "OsProcessLauncher[terminationGrace="
        + terminationGrace
        + ", drainTimeout="
        + drainTimeout
        + ", setsid="
        + setsidCommand.map(Path::toString).orElse("missing")
        + ", kill="
        + killCommand.map(Path::toString).orElse("missing")
        + ", containment="
        + enclosure.kind().wireName()
        + ", pidsLimit="
        + pidsLimit
        + ", limitsMemory="
        + enclosure.limitsMemory()
        + "]";
  }

  /** A mutable, single-thread builder of {@link OsProcessLauncher}. */
  public static final class Builder {
    private Duration terminationGrace = DEFAULT_TERMINATION_GRACE;
    private Duration drainTimeout = DEFAULT_DRAIN_TIMEOUT;
    private Optional<Path> setsidCommand = LaunchSupport.findTool("setsid");
    private Optional<Path> killCommand = LaunchSupport.findTool("kill");
    private Optional<Enclosure> enclosure = Optional.empty();
    private int pidsLimit = DEFAULT_PIDS_LIMIT;
    private Optional<ExecutedFile> executedFile = Optional.empty();

    private Builder() {}

    /** Test seam: the check of {@link LaunchRequest#executable()} with other launcher stages. */
    Builder executedFile(ExecutedFile check) {
      this.executedFile = Optional.of(check);
      return this;
    }

    /**
     * Sets the most tasks (processes and threads) one call may have at once (1..{@link
     * #MAX_PIDS_LIMIT}) where a cgroup with a {@code pids} controller contains it; a fork past it
     * fails in the provider. Default {@link #DEFAULT_PIDS_LIMIT}. Without such a cgroup there is no
     * limit.
     *
     * @throws InvalidValueException when out of range
     */
    public Builder pidsLimit(int limit) {
      if (limit < 1 || limit > MAX_PIDS_LIMIT) {
        throw new InvalidValueException(
            "pids limit", Integer.toString(limit), "must be 1.." + MAX_PIDS_LIMIT);
      }
      this.pidsLimit = limit;
      return this;
    }

    /** Test seam: the containment mechanism instead of the one chosen for this JVM. */
    Builder enclosure(Enclosure enclosure) {
      this.enclosure = Optional.of(enclosure);
      return this;
    }

    /**
     * Sets the SIGTERM-to-SIGKILL grace (0..1 minute). Default {@link #DEFAULT_TERMINATION_GRACE};
     * tests may shorten it.
     *
     * @throws InvalidValueException when out of range
     */
    public Builder terminationGrace(Duration grace) {
      this.terminationGrace = bounded("termination grace", grace);
      return this;
    }

    /**
     * Sets the bound for joining the drain threads after termination (0..1 minute). Default {@link
     * #DEFAULT_DRAIN_TIMEOUT}.
     *
     * @throws InvalidValueException when out of range
     */
    public Builder drainTimeout(Duration timeout) {
      this.drainTimeout = bounded("drain timeout", timeout);
      return this;
    }

    /** Test seam: the {@code setsid} executable, or empty to simulate its absence. */
    Builder setsidCommand(Optional<Path> command) {
      this.setsidCommand = command;
      return this;
    }

    /** Test seam: the {@code kill} executable, or empty to simulate its absence. */
    Builder killCommand(Optional<Path> command) {
      this.killCommand = command;
      return this;
    }

    /** Builds the launcher with the {@code setsid} and {@code kill} located for this builder. */
    public OsProcessLauncher build() {
      return new OsProcessLauncher(this);
    }

    private static Duration bounded(String what, Duration value) {
      Objects.requireNonNull(value, what);
      if (value.isNegative() || value.compareTo(MAX_BOUND) > 0) {
        throw new InvalidValueException(what, value.toString(), "must be 0..PT1M");
      }
      return value;
    }
  }
}
