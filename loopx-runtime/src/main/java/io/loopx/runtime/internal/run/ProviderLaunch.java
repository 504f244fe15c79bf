package io.loopx.runtime.internal.run;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.TraceContext;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.internal.WorkerWire;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.provider.ProviderMain;
import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.internal.identity.RuntimeResolution;
import io.loopx.runtime.internal.isolation.Bubblewrap;
import io.loopx.runtime.internal.isolation.IsolationBind;
import io.loopx.runtime.internal.isolation.IsolationPlan;
import io.loopx.runtime.internal.manifest.AccessRoots;
import io.loopx.runtime.internal.manifest.AccessRoots.Granted;
import io.loopx.runtime.internal.process.CallDeadline;
import io.loopx.runtime.internal.process.FileStamp;
import io.loopx.runtime.internal.process.LaunchRequestBuilder;
import io.loopx.runtime.internal.process.LaunchRequestRecord;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.internal.worker.WorkerEvents;
import io.loopx.runtime.internal.worker.Workers;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import io.loopx.runtime.spi.ProcessLauncher;
import io.loopx.runtime.state.ActivationState;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * Starts providers: builds the fixed launch (argv from the resolved runtime and the manifest; the
 * environment of docs/contract/run.md: the host's, with {@code PATH} the launcher's directory
 * followed by the one composed {@link io.loopx.runtime.internal.identity.SearchPath} the resolver
 * searched, {@code LOOPX_EXTENSION_ID} and {@code LOOPX_EXTENSION_REVISION} set) and hands it to
 * the host's {@link ProcessLauncher}. Shared by the doctor probe, the standalone run and capability
 * dispatch. The host's {@code TRACEPARENT} and {@code TRACESTATE} are never passed on: a one-shot
 * launch (call or probe) gets the calling thread's trace context from the {@link TraceSource}
 * instead, read right before it starts, and a warm worker gets it in its request frames
 * (docs/contract/run.md#trace-context). Thread-safe (immutable).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ProviderLaunch {
  private final ProcessLauncher launcher;
  private final Map<String, String> hostEnvironment;
  private final String searchPath;
  private final boolean keepStderr;
  private final Optional<Workers> workers;
  private final long hostMemoryLimit;
  private final TraceSource trace;
  private final AccessRoots accessRoots;

  /**
   * Creates the launch path over {@code launcher} with the host's environment; {@code searchPath}
   * (already composed, see {@link io.loopx.runtime.internal.identity.SearchPath}) replaces the host
   * environment's {@code PATH}. Without {@code keepStderr} the captured stderr is dropped from
   * every result, so no receipt carries a {@code stderr_tail}.
   */
  public ProviderLaunch(
      ProcessLauncher launcher,
      Map<String, String> hostEnvironment,
      String searchPath,
      boolean keepStderr) {
    this(
        launcher,
        hostEnvironment,
        searchPath,
        keepStderr,
        WorkerEvents.NONE,
        OsProcessLauncher.DEFAULT_MEMORY_LIMIT,
        TraceSource.NONE,
        AccessRoots.NONE);
  }

  /**
   * Creates the launch path as above; {@code workerEvents} hears every warm worker's life; {@code
   * hostMemoryLimit} is the host's memory limit in bytes of one call or worker process (see {@link
   * #memoryLimit}); {@code trace} gives the calling thread's trace context to each one-shot launch
   * and worker request frame (docs/contract/run.md#trace-context); {@code accessRoots} are the
   * host's directories that a manifest's {@code runtime.access} names (docs/access.md): each launch
   * binds the declared ones into its isolation plan and names them in {@code LOOPX_ACCESS_<ROOT>}.
   */
  public ProviderLaunch(
      ProcessLauncher launcher,
      Map<String, String> hostEnvironment,
      String searchPath,
      boolean keepStderr,
      WorkerEvents workerEvents,
      long hostMemoryLimit,
      TraceSource trace,
      AccessRoots accessRoots) {
    this.accessRoots = accessRoots;
    this.hostMemoryLimit = hostMemoryLimit;
    this.trace = trace;
    this.launcher = launcher;
    this.hostEnvironment = Map.copyOf(hostEnvironment);
    this.searchPath = searchPath;
    this.keepStderr = keepStderr;
    this.workers =
        launcher instanceof OsProcessLauncher os
            ? Optional.of(new Workers(os, keepStderr, workerEvents))
            : Optional.empty();
  }

  /**
   * What a prepared provider call did.
   *
   * @param outcome the classified outcome
   * @param executableMismatch whether the process executed other bytes than the hashed file
   * @param warm whether a warm worker answered (its runtime was started before this call)
   */
  public record Called(ProviderOutcome outcome, boolean executableMismatch, boolean warm) {}

  /**
   * Runs a prepared call whose governance checks have passed: on a warm worker of (id, revision,
   * identity) when {@code spec} declares {@code [runtime.worker]}, the launcher is LoopX's own, no
   * extra arguments are given, the caller did not ask for one-shot ({@code forceOneShot}) and the
   * workers are not closed; else {@code oneShot} is started and classified
   * (docs/contract/worker.md). {@code check} is the execute-time check: it runs right before the
   * one-shot launch, or right before a worker is started for the call and before its frame is
   * written, ordered with lifecycle commits ({@link #ordered}); what it throws propagates and
   * nothing runs. Either way the call ends by the smaller of the manifest timeout and the caller's
   * {@code deadline}: a one-shot launch gets that as its timeout (a deadline already past starts
   * nothing and ends {@code timeout}).
   */
  public Called call(
      RuntimeResolution.Resolved runtime,
      RuntimeSpec spec,
      List<String> extraArgs,
      ExtensionId id,
      Revision revision,
      LaunchRequest oneShot,
      CallDeadline deadline,
      boolean forceOneShot,
      Runnable check) {
    requireIsolation();
    if (!forceOneShot && spec.worker().isPresent() && extraArgs.isEmpty() && workers.isPresent()) {
      // Built only when a worker starts: a warm request does not need it.
      Supplier<LaunchRequest> start = () -> workerLaunch(runtime, spec, id, revision);
      Optional<Workers.Outcome> outcome =
          workers
              .get()
              .call(
                  id,
                  revision,
                  runtime.identity().value(),
                  spec,
                  start,
                  oneShot.stdin(),
                  trace,
                  deadline,
                  check);
      if (outcome.isPresent()) {
        return new Called(outcome.get().outcome(), outcome.get().executableMismatch(), true);
      }
    }
    check.run();
    Duration timeout = deadline.cap(oneShot.timeout());
    if (timeout.isZero()) {
      return new Called(
          ProviderOutcomes.classify(
              LaunchResult.stopped(LaunchOutcome.TIMED_OUT, new byte[0], new byte[0], timeout)),
          false,
          false);
    }
    LaunchResult result =
        launch(timeout.equals(oneShot.timeout()) ? oneShot : retimed(oneShot, timeout));
    return new Called(
        ProviderOutcomes.classify(result),
        result.outcome() == LaunchOutcome.EXECUTABLE_MISMATCH,
        false);
  }

  /** Returns {@code request} with {@code context} in its environment. */
  private static LaunchRequest traced(LaunchRequest request, TraceContext context) {
    Map<String, String> env = new LinkedHashMap<>(request.environment());
    env.put(WorkerWire.TRACEPARENT_VARIABLE, context.traceparent());
    if (!context.tracestate().isEmpty()) {
      env.put(WorkerWire.TRACESTATE_VARIABLE, context.tracestate());
    }
    return new LaunchRequestRecord(
        request.argv(),
        env,
        request.workingDirectory(),
        request.stdin(),
        request.timeout(),
        request.stdoutLimit(),
        request.stderrLimit(),
        LaunchRequestRecord.stampOf(request),
        request.memoryLimit(),
        LaunchRequestRecord.isolationOf(request));
  }

  private static LaunchRequest retimed(LaunchRequest request, Duration timeout) {
    return new LaunchRequestRecord(
        request.argv(),
        request.environment(),
        request.workingDirectory(),
        request.stdin(),
        timeout,
        request.stdoutLimit(),
        request.stderrLimit(),
        LaunchRequestRecord.stampOf(request),
        request.memoryLimit(),
        LaunchRequestRecord.isolationOf(request));
  }

  /**
   * Returns the launch of a warm worker of {@code runtime}: the one-shot argv with {@code
   * runtime.worker.args} appended and {@code LOOPX_WORKER_PROTOCOL} set (docs/contract/worker.md).
   */
  private LaunchRequest workerLaunch(
      RuntimeResolution.Resolved runtime, RuntimeSpec spec, ExtensionId id, Revision revision) {
    Granted granted = granted(spec, id);
    Map<String, String> env = launchEnvironment(runtime, granted, id, revision);
    env.put(ProviderMain.WORKER_PROTOCOL_VARIABLE, spec.protocol().value());
    return request(runtime, spec, spec.worker().orElseThrow().args(), id, revision)
        .environment(env)
        .build();
  }

  /**
   * The doctor's worker check (docs/contract/doctor.md#probe): for a runtime that declares {@code
   * [runtime.worker]}, when this launch path starts workers, starts one worker exactly as a pool
   * would, waits up to {@code timeout_seconds} for its handshake and stops it; empty when there is
   * nothing to check (no worker table, or a host launcher).
   */
  public Optional<Workers.HandshakeCheck> checkWorker(
      RuntimeResolution.Resolved runtime, RuntimeSpec spec, ExtensionId id, Revision revision) {
    if (spec.worker().isEmpty() || workers.isEmpty()) {
      return Optional.empty();
    }
    requireIsolation();
    return Optional.of(
        workers
            .get()
            .checkHandshake(
                workerLaunch(runtime, spec, id, revision),
                spec,
                Duration.ofSeconds(spec.timeoutSeconds())));
  }

  /** Forgets the failed worker starts of {@code id}: a doctor of it reported ready. */
  public void workersReady(ExtensionId id) {
    workers.ifPresent(w -> w.ready(id));
  }

  /**
   * Runs {@code commit} (a lifecycle commit and the retires it causes) ordered with the warm
   * workers' execute-time checks: no request frame is written while it runs.
   */
  public <T> T ordered(Supplier<T> commit) {
    return workers.isPresent() ? workers.get().ordered(commit) : commit.get();
  }

  /** Retires the warm workers of {@code id} (a lifecycle change or a changed runtime). */
  public void retireWorkers(ExtensionId id) {
    workers.ifPresent(w -> w.retire(id));
  }

  /** Retires the warm workers of {@code id} and forgets its failed starts (an uninstall). */
  public void forgetWorkers(ExtensionId id) {
    workers.ifPresent(w -> w.forget(id));
  }

  /**
   * Lets the warm workers watch the committed state through {@code state} (see {@link
   * Workers#watch}).
   */
  public void watchState(Supplier<ActivationState> state) {
    workers.ifPresent(w -> w.watch(state));
  }

  /** Returns the warm workers, when this launch path can start them. */
  public Optional<Workers> workers() {
    return workers;
  }

  /** Retires every warm worker and returns when none is left. */
  public void close() {
    workers.ifPresent(Workers::close);
  }

  /**
   * Returns a launch of {@code runtime} with the manifest's args and then {@code extraArgs}, which
   * the launcher checks executes the {@linkplain RuntimeResolution.Resolved#executed() hashed
   * file}.
   */
  public LaunchRequestBuilder request(
      RuntimeResolution.Resolved runtime,
      RuntimeSpec spec,
      List<String> extraArgs,
      ExtensionId id,
      Revision revision) {
    Granted granted = granted(spec, id);
    List<String> argv = new ArrayList<>(runtime.commandPrefix());
    argv.addAll(spec.args());
    argv.addAll(extraArgs);
    LaunchRequestBuilder builder =
        LaunchRequestBuilder.of(argv)
            .environment(launchEnvironment(runtime, granted, id, revision))
            .timeout(Duration.ofSeconds(spec.timeoutSeconds()))
            .memoryLimit(requestedMemory(spec))
            .isolation(
                isolationPlan(runtime, new IsolationPlan(granted.network(), granted.binds())));
    runtime.executed().ifPresent(builder::executable);
    return builder;
  }

  /**
   * What the host grants {@code spec}'s {@code runtime.access}; throws {@code access_root_unknown}
   * when it declares a root the host does not map (the doctor reports that before any probe; a call
   * meets it when the mapping was dropped after the doctor passed): nothing has started.
   */
  private Granted granted(RuntimeSpec spec, ExtensionId id) {
    AccessRoots.Resolution resolution = accessRoots.resolve(spec.access());
    if (resolution instanceof AccessRoots.UnknownRoots unknown) {
      throw new LoopxException(ErrorKind.ACCESS_ROOT_UNKNOWN, unknown.message(id));
    }
    return (Granted) resolution;
  }

  /** The launch environment ({@link #environment}) plus the granted roots' variables. */
  private Map<String, String> launchEnvironment(
      RuntimeResolution.Resolved runtime, Granted granted, ExtensionId id, Revision revision) {
    Map<String, String> env = environment(runtime, hostEnvironment, searchPath, id, revision);
    env.putAll(granted.environment());
    return env;
  }

  /**
   * The memory limit of one call or worker process of {@code spec} in bytes
   * (docs/contract/run.md#memory-limit): the manifest's {@code memory_mb} when declared, capped by
   * the host's limit; else the host's limit.
   */
  private long requestedMemory(RuntimeSpec spec) {
    if (spec.memoryMb().isPresent()) {
      return Math.min(hostMemoryLimit, (long) spec.memoryMb().getAsInt() << 20);
    }
    return hostMemoryLimit;
  }

  /**
   * Returns the memory limit applied to each call or worker process of {@code spec} in bytes (for
   * receipts' {@code memory_limit_bytes}): empty when the launcher does not limit memory.
   */
  public OptionalLong memoryLimit(RuntimeSpec spec) {
    return launcher.limitsMemory() ? OptionalLong.of(requestedMemory(spec)) : OptionalLong.empty();
  }

  /**
   * Returns the isolation plan of a launch of {@code runtime}: {@code declared} (what the manifest
   * declared and the host mapped: the network and the roots' binds) plus, read-only, the package:
   * the home ({@link Bubblewrap#homeOf}) of every hashed file of the runtime outside the system
   * directories (its launcher, an interpreter, jars and class directories).
   */
  public static IsolationPlan isolationPlan(
      RuntimeResolution.Resolved runtime, IsolationPlan declared) {
    List<IsolationBind> binds = new ArrayList<>();
    for (FileStamp stamp : runtime.stamps()) {
      Bubblewrap.homeOf(stamp.path()).ifPresent(home -> binds.add(new IsolationBind(home, false)));
    }
    runtime
        .savedPath()
        .flatMap(Bubblewrap::homeOf)
        .ifPresent(home -> binds.add(new IsolationBind(home, false)));
    return declared.plus(binds);
  }

  /** Returns what isolates the providers the launcher starts (for receipts). */
  public Isolation isolation() {
    return launcher instanceof OsProcessLauncher os ? os.isolation() : Isolation.NONE;
  }

  /**
   * Returns what receipts and doctor packets report as {@code isolation}: empty (the field absent)
   * when the host's policy is off or the launcher is the host's own, so that their receipts do not
   * change; else what applies.
   */
  public Optional<Isolation> reportedIsolation() {
    return launcher instanceof OsProcessLauncher os && os.isolationPolicy() != IsolationPolicy.OFF
        ? Optional.of(os.isolation())
        : Optional.empty();
  }

  /**
   * Throws {@code isolation_unavailable} when the host requires isolation and the tool cannot give
   * it: called before anything of a call, probe or worker start runs.
   */
  public void requireIsolation() {
    if (launcher instanceof OsProcessLauncher os) {
      Optional<String> reason = os.isolationUnavailable();
      if (reason.isPresent()) {
        throw new LoopxException(
            ErrorKind.ISOLATION_UNAVAILABLE,
            "the host requires isolation and it is unavailable: " + reason.get());
      }
    }
  }

  /** Returns how the launcher contains the providers it starts (for receipts). */
  public Optional<Containment> containment() {
    return launcher.containment();
  }

  /**
   * Starts {@code request} and waits for its result (its stderr dropped unless kept); the calling
   * thread's trace context, read right before, is added to its environment ({@code TRACEPARENT},
   * and {@code TRACESTATE} when not empty).
   */
  public LaunchResult launch(LaunchRequest request) {
    requireIsolation();
    Optional<TraceContext> context = trace.get();
    LaunchResult result =
        launcher.launch(context.isEmpty() ? request : traced(request, context.get()));
    if (keepStderr || result.stderr().length == 0) {
      return result;
    }
    return switch (result.outcome()) {
      case NOT_STARTED -> result;
      case EXITED ->
          LaunchResult.exited(
              result.exitCode().orElseThrow(), result.stdout(), new byte[0], result.duration());
      default ->
          LaunchResult.stopped(result.outcome(), result.stdout(), new byte[0], result.duration());
    };
  }

  /**
   * Returns the provider environment of docs/contract/run.md: {@code hostEnvironment} without
   * {@code TRACEPARENT} and {@code TRACESTATE} (a call's own context is added at its launch), PATH
   * prefixed by the launcher's directory, {@code LOOPX_EXTENSION_ID} and {@code
   * LOOPX_EXTENSION_REVISION}.
   */
  public static Map<String, String> environment(
      RuntimeResolution.Resolved runtime,
      Map<String, String> hostEnvironment,
      String searchPath,
      ExtensionId id,
      Revision revision) {
    Map<String, String> env = new LinkedHashMap<>(hostEnvironment);
    env.remove("PATH");
    env.remove(WorkerWire.TRACEPARENT_VARIABLE);
    env.remove(WorkerWire.TRACESTATE_VARIABLE);
    Path launcherDirectory = Path.of(runtime.commandPrefix().get(0)).getParent();
    List<String> path = new ArrayList<>();
    if (launcherDirectory != null) {
      path.add(launcherDirectory.toString());
    }
    if (!searchPath.isEmpty()) {
      path.add(searchPath);
    }
    if (!path.isEmpty()) {
      env.put("PATH", String.join(File.pathSeparator, path));
    }
    env.put(EnvelopeVerifier.Expectation.ID_VARIABLE, id.value());
    env.put(EnvelopeVerifier.Expectation.REVISION_VARIABLE, revision.value());
    return env;
  }
}
