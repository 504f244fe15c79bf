package io.loopx.runtime.internal.process;

import io.loopx.api.InvalidValueException;
import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.internal.isolation.Bubblewrap;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import io.loopx.runtime.spi.ProcessLauncher;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * The production {@link ProcessLauncher}: runs operating-system processes on Linux, each call
 * contained so that nothing it starts outlives it (a cgroup per call where the JVM's own cgroup is
 * writable, else the provider's own process group, chosen once per JVM: {@link #containment()}),
 * with bounded pipes, a timeout and whole-tree termination. Immutable and thread-safe; one instance
 * can supervise many processes at once. The mechanisms and their limits are in docs/process.md; the
 * outcomes in docs/contract/run.md.
 *
 * <pre>{@code
 * OsProcessLauncher launcher = OsProcessLauncher.builder().pidsLimit(256).build();
 * LaunchResult result = launcher.launch(request);
 * }</pre>
 *
 * <p>Interrupting the calling thread while it waits cancels the launch ({@link
 * LaunchOutcome#CANCELLED}); the interrupt status is restored when the call returns.
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
  private final IsolationPolicy isolationPolicy;
  private final Supplier<Bubblewrap.Availability> isolationTool;

  private OsProcessLauncher(Builder builder) {
    this.terminationGrace = builder.terminationGrace;
    this.drainTimeout = builder.drainTimeout;
    this.setsidCommand = builder.setsidCommand;
    this.killCommand = builder.killCommand;
    this.enclosure = builder.enclosure.orElseGet(Cgroups::system);
    this.pidsLimit = builder.pidsLimit;
    this.executedFile = builder.executedFile.orElseGet(ExecutedFile::forThisJvm);
    this.isolationPolicy = builder.isolationPolicy;
    Supplier<Bubblewrap.Availability> probe = builder.isolationProbe;
    this.isolationTool =
        isolationPolicy == IsolationPolicy.OFF
            ? () -> new Bubblewrap.Availability.Unusable("isolation is off")
            : memoized(probe);
  }

  private static Supplier<Bubblewrap.Availability> memoized(
      Supplier<Bubblewrap.Availability> probe) {
    Object lock = new Object();
    @SuppressWarnings("unchecked")
    Bubblewrap.Availability[] found = new Bubblewrap.Availability[1];
    return () -> {
      synchronized (lock) {
        if (found[0] == null) {
          found[0] = probe.get();
        }
        return found[0];
      }
    };
  }

  /** Returns the host's isolation policy. */
  public IsolationPolicy isolationPolicy() {
    return isolationPolicy;
  }

  /**
   * Returns the isolation tool every call, probe and worker of this launcher runs under: present
   * when the policy is not {@link IsolationPolicy#OFF} and bubblewrap is usable (probed once, on
   * first use).
   */
  public Optional<Bubblewrap> isolator() {
    return isolationTool.get() instanceof Bubblewrap.Availability.Usable usable
        ? Optional.of(usable.tool())
        : Optional.empty();
  }

  /** Returns what isolates the processes this launcher starts. */
  public Isolation isolation() {
    return isolator().isPresent() ? Isolation.BUBBLEWRAP : Isolation.NONE;
  }

  /**
   * Returns why nothing may start: the policy is {@link IsolationPolicy#REQUIRED} and bubblewrap is
   * not usable; empty otherwise.
   */
  public Optional<String> isolationUnavailable() {
    if (isolationPolicy != IsolationPolicy.REQUIRED) {
      return Optional.empty();
    }
    return isolationTool.get() instanceof Bubblewrap.Availability.Unusable unusable
        ? Optional.of(unusable.reason())
        : Optional.empty();
  }

  /**
   * The isolation argv for {@code request}, when this launcher isolates: its plan, and read-only
   * the homes ({@link Bubblewrap#homeOf}) of its program when given by path and of its expected
   * file.
   */
  Optional<List<String>> sandbox(LaunchRequest request) {
    Optional<Bubblewrap> tool = isolator();
    if (tool.isEmpty()) {
      return Optional.empty();
    }
    List<Path> readOnly = new ArrayList<>();
    String program = request.argv().get(0);
    if (program.startsWith("/")) {
      Bubblewrap.homeOf(Path.of(program)).ifPresent(readOnly::add);
    }
    request.executable().flatMap(Bubblewrap::homeOf).ifPresent(readOnly::add);
    return Optional.of(tool.get().prefix(LaunchRequestRecord.isolationOf(request), readOnly));
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
    Optional<String> unavailable = isolationUnavailable();
    if (unavailable.isPresent()) {
      return notStarted("isolation is required: " + unavailable.get(), started);
    }
    ContainedStart.Result start =
        ContainedStart.start(
            request,
            directory,
            List.of(),
            setsidCommand.get(),
            sandbox(request),
            enclosure,
            pidsLimit,
            "call's",
            Optional.empty());
    if (start instanceof ContainedStart.NotStarted notStarted) {
      return notStarted(notStarted.reason(), started);
    }
    ContainedStart.Started running = (ContainedStart.Started) start;
    try {
      return new CallSupervisor(terminationGrace, drainTimeout, killCommand, executedFile)
          .supervise(running, request, started);
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
    Optional<String> unavailable = isolationUnavailable();
    if (unavailable.isPresent()) {
      return new LongLivedProcess.Start.NotStarted("isolation is required: " + unavailable.get());
    }
    return LongLivedProcess.start(
        request,
        enclosure,
        pidsLimit,
        setsidCommand,
        sandbox(request),
        killCommand,
        terminationGrace);
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
        + ", isolation="
        + isolationPolicy
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
    private IsolationPolicy isolationPolicy = IsolationPolicy.OFF;
    private Supplier<Bubblewrap.Availability> isolationProbe = Bubblewrap::probe;

    private Builder() {}

    /**
     * Sets whether calls, probes and workers run isolated (docs/process.md#isolation). Default
     * {@link IsolationPolicy#OFF}.
     */
    public Builder isolation(IsolationPolicy policy) {
      this.isolationPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Test seam: the bubblewrap and setpriv executables instead of the fixed paths (a missing path
     * simulates a host without the tool).
     */
    Builder isolationTool(Path bwrap, Path setpriv) {
      this.isolationProbe = () -> Bubblewrap.probe(bwrap, setpriv, Bubblewrap.hostIsRoot());
      return this;
    }

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
