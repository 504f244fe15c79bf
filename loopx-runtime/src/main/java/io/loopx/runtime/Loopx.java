package io.loopx.runtime;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.TraceContext;
import io.loopx.api.internal.Arguments;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.registry.CapabilityRegistry;
import io.loopx.runtime.dispatch.CheckReceipt;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.events.CallObserver;
import io.loopx.runtime.events.LoopxListener;
import io.loopx.runtime.internal.call.CallInput;
import io.loopx.runtime.internal.lifecycle.LifecycleCommand;
import io.loopx.runtime.internal.manifest.AccessRoots;
import io.loopx.runtime.internal.observe.Observer;
import io.loopx.runtime.internal.process.CallDeadline;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.internal.run.RequestBody;
import io.loopx.runtime.internal.state.FileActivationStore;
import io.loopx.runtime.internal.worker.Workers;
import io.loopx.runtime.lifecycle.DoctorAllReceipt;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.lifecycle.ListReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.spi.ProcessLauncher;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * The LoopX facade a host builds once and drives: the extension lifecycle (install, upgrade,
 * enable, disable, rollback, uninstall, doctor, list), the managed run, capability dispatch and the
 * capability catalog. Immutable configuration, thread-safe; it only delegates.
 *
 * <pre>{@code
 * try (Loopx loopx = Loopx.builder().runtimeRoot(root).builtin(new MyHostCatalog()).build()) {
 *   LoadedManifest m = LoadedManifest.load(Path.of("packages/my-ext/extension.toml"));
 *   LifecycleReceipt preview = loopx.install(m, Mode.PREVIEW); // writes nothing, runs nothing
 *   LifecycleReceipt done = loopx.install(m, Mode.EXECUTE); // probes doctor, then activates
 *   CapabilityRegistry registry = loopx.registry(); // the generation matching the state
 * }
 * }</pre>
 *
 * <p>A {@linkplain Mode#PREVIEW preview} changes nothing and predicts the execute; preconditions
 * fail in both modes. Failures are {@link LoopxException}s with a stable {@link ErrorKind} and
 * leave durable state unchanged, but for the two revocations of docs/contract/lifecycle.md (a
 * failed executed enable or doctor). Every operation reads the state afresh.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class Loopx implements AutoCloseable {
  /** This library's version (also the version of every built-in provider). */
  public static final String VERSION = Wiring.readVersion();

  private final ActivationStore store;
  private final FileSystem fileSystem;
  private final Map<String, byte[]> bundled;
  private final Wiring wired;

  private Loopx(Builder b, ActivationStore store, FileSystem fileSystem) {
    this.store = store;
    this.fileSystem = fileSystem;
    this.bundled = Map.copyOf(b.bundled);
    this.wired = new Wiring(b, store, fileSystem);
  }

  /** Returns a new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Retires every warm provider worker (docs/contract/worker.md): no new request reaches one,
   * requests in flight get up to 5 seconds to finish (then end {@code worker_terminated}), and each
   * worker's stdin is closed and its whole tree killed. Returns when no worker is left. Idempotent;
   * calls after it run their providers one-shot.
   */
  @Override
  public void close() {
    wired.close();
  }

  /**
   * Returns a snapshot of each live warm-worker pool (docs/contract/worker.md#pool), one per
   * (extension, revision) whose workers are running, starting or idle, for gauges and health pages
   * (docs/observing.md#worker-pools). The counts of one pool are read together under its lock;
   * pools are read one after the other. Empty when no pool lives, when the launcher is the host's
   * own (no workers) and after {@link #close()}.
   */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  public List<WorkerPoolSnapshot> workerPools() {
    return wired.workers().stream().flatMap(w -> w.snapshots().stream()).toList();
  }

  /**
   * The warm workers of capability providers, when this facade starts them (for tests in this
   * package).
   */
  Optional<Workers> workers() {
    return wired.providers.workers();
  }

  /**
   * The warm workers of standalone extensions, when this facade starts them (for tests in this
   * package): those of {@link #workers()} unless they run isolated by default.
   */
  Optional<Workers> standaloneWorkers() {
    return wired.standaloneProviders.workers();
  }

  /**
   * Returns the bundled manifest registered by the host under {@code id}.
   *
   * @throws LoopxException {@code MANIFEST_INVALID} for an unknown bundled id
   */
  public LoadedManifest bundledManifest(String id) {
    byte[] content = bundled.get(id);
    if (content == null) {
      throw new LoopxException(
          ErrorKind.MANIFEST_INVALID,
          "unknown bundled extension `"
              + id
              + "`; bundled: "
              + bundled.keySet().stream().sorted().toList());
    }
    return LoadedManifest.parse(content, "bundled:" + id, fileSystem.getPath("").toAbsolutePath());
  }

  // ---------------------------------------------------------------- operations

  /** Installs a new extension: validate, probe (execute only), then activate and enable it. */
  public LifecycleReceipt install(LoadedManifest manifest, Mode mode) {
    return wired.lifecycle.apply(
        new LifecycleCommand.Install(manifest.manifest(), manifest.directory()), mode);
  }

  /** Upgrades an installed extension to a new revision after probing it (execute only). */
  public LifecycleReceipt upgrade(LoadedManifest manifest, Mode mode) {
    return wired.lifecycle.apply(
        new LifecycleCommand.Upgrade(manifest.manifest(), manifest.directory()), mode);
  }

  /** Enables an extension after a fresh probe; a failed executed probe revokes its identity. */
  public LifecycleReceipt enable(ExtensionId id, Mode mode) {
    return wired.lifecycle.apply(new LifecycleCommand.Enable(id), mode);
  }

  /** Disables an extension (reversible; history and proofs are kept). */
  public LifecycleReceipt disable(ExtensionId id, Mode mode) {
    return wired.lifecycle.apply(new LifecycleCommand.Disable(id), mode);
  }

  /** Switches to the rollback revision after probing it (execute only); twice toggles back. */
  public LifecycleReceipt rollback(ExtensionId id, Mode mode) {
    return wired.lifecycle.apply(new LifecycleCommand.Rollback(id), mode);
  }

  /**
   * Removes a disabled extension's entry and its whole revision history (proofs included); a later
   * install of the same id starts fresh. A preview reports the revisions it would remove.
   *
   * @throws LoopxException {@code NOT_INSTALLED}; {@code EXTENSION_ENABLED} while it is enabled
   */
  public LifecycleReceipt uninstall(ExtensionId id, Mode mode) {
    return wired.lifecycle.apply(new LifecycleCommand.Uninstall(id), mode);
  }

  /** Runs the doctor of one extension; executed, it records the proof or revokes the identity. */
  public DoctorReceipt doctor(ExtensionId id, Mode mode) {
    return wired.lifecycle.apply(new LifecycleCommand.Doctor(id), mode);
  }

  /** Runs the doctor of every enabled extension (executed: probes each, records proofs). */
  public DoctorAllReceipt doctorAll(Mode mode) {
    return wired.lifecycle.apply(new LifecycleCommand.DoctorAll(), mode);
  }

  /** Lists installed extensions, evaluating doctor freshness now. */
  public ListReceipt list() {
    return wired.lifecycle.apply(new LifecycleCommand.ListExtensions(), Mode.PREVIEW);
  }

  /** Returns the activation state as currently stored. */
  public ActivationState state() {
    return store.read();
  }

  /**
   * Runs a standalone extension (docs/contract/run.md); a preview checks everything and starts
   * nothing. The request is read and validated first (at most 1,000,000 bytes consumed), before any
   * state is read. Its deadline and one-shot option are {@link RunRequest}'s; interrupting the
   * calling thread cancels a run ({@code cancelled}).
   *
   * @throws LoopxException {@code REQUEST_INVALID}; then (state errors aside) in this order {@code
   *     NOT_INSTALLED}, {@code EXTENSION_DISABLED}, {@code DOCTOR_STALE}, {@code RESOLUTION_FAILED}
   *     (not standalone), {@code PERMISSION_DENIED} (any declared permission). What the provider
   *     did is never an exception: it is the receipt's status.
   */
  public RunReceipt run(RunRequest request, Mode mode) {
    CallInput input = CallInput.from(request);
    CallDeadline bound = CallDeadline.of(input.deadline());
    ExtensionId id = request.extensionId();
    return wired.observer.run(
        id,
        mode,
        facts ->
            wired.standaloneRun.run(
                id, RequestBody.read(input), mode, bound, input.isOneShot(), facts));
  }

  /**
   * Dispatches an effectful capability request (docs/contract/dispatch.md): reads the request first
   * (the same input rules as {@link #run}), resolves exactly one ready implementation (or the named
   * one), checks the permission contract, asks the host's {@link DomainPolicy}, binds the execution
   * envelope and, when executing, runs the provider. A caller can never supply an envelope. With a
   * deadline, a request still waiting for a worker slot at its end fails {@code provider_busy}.
   */
  public DispatchReceipt dispatch(DispatchRequest request, Mode mode) {
    CallInput input = CallInput.from(request);
    CallDeadline bound = CallDeadline.of(input.deadline());
    return wired.observer.dispatch(
        request,
        mode,
        facts ->
            wired.dispatch.dispatch(
                request, RequestBody.read(input), mode, bound, input.isOneShot(), facts));
  }

  /**
   * Checks that extension-owned code may be entered in process for an operation needing {@code
   * permissions}: the extension is installed, enabled and doctor-fresh, and its active revision
   * declares them. Call it for every operation; disabling or upgrading affects the next check.
   */
  public CheckReceipt check(ExtensionId id, Set<Permission> permissions) {
    return wired.dispatch.check(id, permissions);
  }

  // ---------------------------------------------------------------- catalog

  /**
   * Returns the registry generation matching the current activation state: built-ins, then
   * installed extensions with their lifecycle flags evaluated now.
   */
  public CapabilityRegistry registry() {
    return wired.catalog.current().registry();
  }

  /**
   * Returns the registry of the current state that also holds declaration-only manifests ({@code
   * declared=true}, nothing installed or executed); an installed extension replaces a declaration
   * with the same id.
   */
  public CapabilityRegistry registryWith(List<LoadedManifest> declarations) {
    return wired.catalog.withDeclarations(
        declarations.stream().map(LoadedManifest::manifest).toList());
  }

  /**
   * Builds a {@link Loopx}. Not thread-safe; {@link #build()} copies everything, so a builder may
   * be reused. Every method refuses a bad argument (a missing one included) with {@link
   * InvalidValueException}.
   */
  public static final class Builder {
    Optional<ActivationStore> store = Optional.empty();
    Optional<Path> stateFile = Optional.empty();
    final List<BuiltinContribution> builtins = new ArrayList<>();
    Optional<ProcessLauncher> launcher = Optional.empty();
    int providerPidsLimit = OsProcessLauncher.DEFAULT_PIDS_LIMIT;
    long providerMemoryLimit = OsProcessLauncher.DEFAULT_MEMORY_LIMIT;
    Optional<IsolationPolicy> isolation = Optional.empty();
    RuntimeEnvironment runtimeEnvironment = RuntimeEnvironment.current();
    Map<String, String> hostEnvironment = System.getenv();
    boolean hostEnvironmentGiven;
    ProviderEnvironment providerEnvironment = ProviderEnvironment.inheritAll();
    boolean providerStderrTail = true;
    final Map<String, byte[]> bundled = new LinkedHashMap<>();
    DomainPolicy policy = DomainPolicy.denyAll();
    final List<LoopxListener> listeners = new ArrayList<>();
    final List<CallObserver> observers = new ArrayList<>();
    Supplier<Optional<TraceContext>> traceContext = Optional::empty;
    System.Logger logger = System.getLogger(Observer.LOGGER_NAME);
    final Map<String, Path> accessRoots = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Maps the access root {@code name} to {@code directory}: a manifest that declares {@code
     * read:<name>} or {@code write:<name>} in {@code runtime.access} gets that directory, read-only
     * or writable, where the host isolates its providers, and finds it in {@code
     * LOOPX_ACCESS_<NAME>} (docs/access.md). A revision that declares a root the host does not map
     * fails its doctor with {@code access_root_unknown}. At {@link #build()} the directory must
     * exist (it is bound at its real path) and must not be, hold or lie inside the activation
     * state's directory.
     *
     * @param name a lower-kebab root name of 1..32 characters
     * @param directory an absolute directory
     * @throws io.loopx.api.InvalidValueException for a bad name, a relative directory or a name
     *     mapped twice
     */
    @API(status = API.Status.EXPERIMENTAL, since = "1.0")
    public Builder accessRoot(String name, Path directory) {
      Arguments.required("access root name", name);
      Arguments.required("access root directory", directory);
      AccessRoots.checkMapping(name, directory);
      if (accessRoots.containsKey(name)) {
        throw new InvalidValueException("access root name", name, "is already mapped");
      }
      accessRoots.put(name, directory);
      return this;
    }

    /**
     * Adds listeners of this facade's events (docs/observing.md), called in the order added, on the
     * thread that did the work, after the durable write and after the state lock was released, in
     * commit order. A throwing listener never changes a result; its failure is logged once.
     */
    public Builder listener(LoopxListener... listeners) {
      for (LoopxListener l : listeners) {
        this.listeners.add(Arguments.required("listener", l));
      }
      return this;
    }

    /**
     * Adds observers that bracket every dispatch, run, doctor probe and lifecycle command on the
     * calling thread (docs/observing.md#call-observers): metrics and tracing adapters. Begun in the
     * order added, ended in the reverse order; a throwing observer never changes a result.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "1.0")
    public Builder observer(CallObserver... observers) {
      for (CallObserver o : observers) {
        this.observers.add(Arguments.required("call observer", o));
      }
      return this;
    }

    /**
     * Reads the calling thread's W3C trace context from {@code source} (for example the {@code
     * loopx-opentelemetry} module's, or one of the host's own) right before a provider is started
     * or a request frame is queued, on the calling thread and after the {@linkplain #observer
     * observers} began, and passes it to the provider (docs/contract/run.md#trace-context).
     * Default: none. A source that throws or returns null counts as none; its first failure is
     * logged once.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "1.0")
    public Builder traceContext(Supplier<Optional<TraceContext>> source) {
      this.traceContext = Arguments.required("trace context source", source);
      return this;
    }

    /** Logs to {@code logger} instead of {@code System.getLogger("io.loopx")} (tests). */
    Builder logger(System.Logger logger) {
      this.logger = Objects.requireNonNull(logger, "logger");
      return this;
    }

    /** Uses {@code policy} to decide effectful dispatches (default: deny all). */
    public Builder domainPolicy(DomainPolicy policy) {
      this.policy = Arguments.required("domain policy", policy);
      return this;
    }

    /** Keeps state at {@code <runtimeRoot>/extensions/state.json}. */
    public Builder runtimeRoot(Path runtimeRoot) {
      Arguments.required("runtime root", runtimeRoot);
      return stateFile(runtimeRoot.resolve("extensions").resolve("state.json"));
    }

    /** Keeps state in {@code stateFile} (lock at {@code stateFile + ".lock"}). */
    public Builder stateFile(Path stateFile) {
      this.stateFile = Optional.of(Arguments.required("state file", stateFile));
      this.store = Optional.empty();
      return this;
    }

    /** Uses a host-provided activation store (for example a shared database). */
    public Builder activationStore(ActivationStore store) {
      this.store = Optional.of(Arguments.required("activation store", store));
      this.stateFile = Optional.empty();
      return this;
    }

    /** Adds a built-in contribution; contributions register in the order added. */
    public Builder builtin(BuiltinContribution contribution) {
      builtins.add(Arguments.required("builtin contribution", contribution));
      return this;
    }

    /**
     * Uses {@code launcher} to start providers. Default: operating-system processes, each call in a
     * cgroup of its own where the JVM's cgroup is writable, else in its own process group
     * (docs/process.md).
     */
    public Builder processLauncher(ProcessLauncher launcher) {
      this.launcher = Optional.of(Arguments.required("process launcher", launcher));
      return this;
    }

    /**
     * Limits each provider call of the default launcher to {@code limit} processes and threads at
     * once where a cgroup with a {@code pids} controller contains the call (default 512); a fork
     * past it fails inside the provider.
     *
     * @throws io.loopx.api.InvalidValueException when {@code limit} is not in 1..4,194,304
     */
    public Builder providerPidsLimit(int limit) {
      OsProcessLauncher.builder().pidsLimit(limit);
      this.providerPidsLimit = limit;
      return this;
    }

    /**
     * Limits each provider call and each warm worker process to {@code bytes} of memory and of
     * memory plus swap (default 1 GiB) where the launcher has a writable memory cgroup; a
     * manifest's {@code runtime.memory_mb} may ask for less. A process over it is killed and the
     * call ends {@code memory_limit} (docs/contract/run.md#memory-limit).
     *
     * @throws io.loopx.api.InvalidValueException when {@code bytes} is not in 16 MiB..64 GiB
     */
    @API(status = API.Status.EXPERIMENTAL, since = "1.0")
    public Builder providerMemoryLimit(long bytes) {
      if (bytes < OsProcessLauncher.MIN_MEMORY_LIMIT
          || bytes > OsProcessLauncher.MAX_MEMORY_LIMIT) {
        throw new InvalidValueException(
            "provider memory limit",
            Long.toString(bytes),
            "must be "
                + OsProcessLauncher.MIN_MEMORY_LIMIT
                + ".."
                + OsProcessLauncher.MAX_MEMORY_LIMIT
                + " bytes (16 MiB..64 GiB)");
      }
      this.providerMemoryLimit = bytes;
      return this;
    }

    /**
     * Sets whether the default launcher runs every provider call, doctor probe and warm worker
     * isolated by the kernel through bubblewrap (docs/process.md#isolation): {@link
     * IsolationPolicy#OFF}, {@link IsolationPolicy#WHEN_AVAILABLE} or {@link
     * IsolationPolicy#REQUIRED} (without a usable bubblewrap every call, probe and worker start
     * fails with {@code isolation_unavailable} before anything runs); the policy set applies to
     * capability providers and standalone extensions alike. Not called: capability providers
     * (extensions with {@code [[provides]]} or {@code [[implements]]}) run with {@code OFF} and
     * standalone extensions (their doctor probes and {@link Loopx#run} calls) with {@code
     * WHEN_AVAILABLE}. When isolation applies, the tool's bytes join the runtime identity, so
     * proofs made without it are stale (as after an interpreter upgrade). Ignored with a host
     * {@link #processLauncher}: nothing isolates.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "1.0")
    public Builder isolation(IsolationPolicy policy) {
      this.isolation = Optional.of(Arguments.required("isolation policy", policy));
      return this;
    }

    /**
     * Uses {@code environment} to resolve runtimes (PATH, java executable, code path). Its {@code
     * searchPath} is the one PATH (see {@link #hostEnvironment}) unless a host environment with a
     * {@code PATH} was given.
     */
    public Builder runtimeEnvironment(RuntimeEnvironment environment) {
      this.runtimeEnvironment = Arguments.required("runtime environment", environment);
      return this;
    }

    /**
     * Uses {@code environment} as the host environment handed to providers (default: this
     * process's). Its {@code PATH}, or else the {@linkplain RuntimeEnvironment#searchPath() runtime
     * environment's search path}, is the one PATH both searched for runtime identities and given to
     * providers, composed at {@link #build()} (docs/threat-model.md, P2).
     */
    public Builder hostEnvironment(Map<String, String> environment) {
      Arguments.required("host environment", environment)
          .forEach(
              (name, value) -> {
                Arguments.required("host environment variable name", name);
                Arguments.required("value of host environment variable `" + name + "`", value);
              });
      this.hostEnvironment = Map.copyOf(environment);
      this.hostEnvironmentGiven = true;
      return this;
    }

    /**
     * Chooses which variables of the {@linkplain #hostEnvironment host environment} providers and
     * doctor probes inherit (default: {@link ProviderEnvironment#inheritAll()}, every variable,
     * secrets included). {@code ProviderEnvironment.allowList("MY_VAR")} keeps only PATH, HOME,
     * LANG, LC_*, TZ, TMPDIR and the named variables. The one PATH is composed from the unfiltered
     * host environment either way.
     */
    public Builder providerEnvironment(ProviderEnvironment policy) {
      this.providerEnvironment = Arguments.required("provider environment", policy);
      return this;
    }

    /**
     * Keeps (default) or drops the {@code stderr_tail} of run and dispatch receipts and doctor
     * packets: the last at most 4,096 bytes a provider or probe wrote to stderr. A host whose
     * providers may print secrets to stderr turns it off; receipts then carry {@code null}.
     */
    public Builder providerStderrTail(boolean keep) {
      this.providerStderrTail = keep;
      return this;
    }

    /** Registers a manifest shipped with the host, installable by {@code id}. */
    public Builder bundledManifest(String id, byte[] toml) {
      bundled.put(
          Arguments.required("bundled manifest id", id),
          Arguments.required("bundled manifest", toml).clone());
      return this;
    }

    /**
     * Builds the facade.
     *
     * @throws io.loopx.api.InvalidValueException when neither a runtime root, a state file nor a
     *     store is set, or an {@linkplain #accessRoot access root}'s directory does not exist or
     *     is, holds or lies inside the state's directory
     */
    public Loopx build() {
      if (store.isPresent()) {
        return new Loopx(this, store.get(), runtimeEnvironment.javaExecutable().getFileSystem());
      }
      Path file =
          stateFile.orElseThrow(
              () ->
                  new InvalidValueException(
                      "activation state location",
                      "unset",
                      "set runtimeRoot, stateFile or activationStore"));
      return new Loopx(this, FileActivationStore.at(file), file.getFileSystem());
    }
  }
}
