package io.loopx.runtime;

import io.loopx.api.ApiRange;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.registry.CapabilityRegistry;
import io.loopx.registry.InstalledExtension;
import io.loopx.registry.RegistryAssembly;
import io.loopx.registry.RegistryGeneration;
import io.loopx.registry.RegistryHolder;
import io.loopx.runtime.dispatch.ActivationRecord;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.doctor.DoctorFailure;
import io.loopx.runtime.doctor.DoctorPacket;
import io.loopx.runtime.doctor.ProbeOutcome;
import io.loopx.runtime.doctor.RuntimeObservation;
import io.loopx.runtime.identity.RuntimeEnvironment;
import io.loopx.runtime.identity.RuntimeResolution;
import io.loopx.runtime.identity.RuntimeResolver;
import io.loopx.runtime.lifecycle.ActivationReceipt;
import io.loopx.runtime.lifecycle.DoctorBatchReceipt;
import io.loopx.runtime.lifecycle.ExtensionList;
import io.loopx.runtime.lifecycle.LifecycleCommand;
import io.loopx.runtime.lifecycle.LifecyclePlan;
import io.loopx.runtime.lifecycle.LifecyclePlanner;
import io.loopx.runtime.lifecycle.Observation;
import io.loopx.runtime.lifecycle.RollbackReceipt;
import io.loopx.runtime.lifecycle.Target;
import io.loopx.runtime.lifecycle.ToggleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.manifest.ManifestLoader;
import io.loopx.runtime.process.LaunchOutcome;
import io.loopx.runtime.process.LaunchResult;
import io.loopx.runtime.process.OsProcessLauncher;
import io.loopx.runtime.process.ProcessLauncher;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.FileActivationStore;
import io.loopx.runtime.state.RevisionSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The LoopX facade a host builds once and drives: manifest loading, the extension lifecycle
 * (install, upgrade, enable, disable, rollback, doctor, list) and the capability catalog.
 *
 * <p>Every lifecycle method takes a {@link Mode}: a {@linkplain Mode#PREVIEW preview} changes
 * nothing on disk and runs no provider code, and its receipt predicts the execute. Preconditions
 * are errors in both modes. Failures are {@link LoopxException}s with a stable {@link ErrorKind}; a
 * failure leaves durable state unchanged (except a failed executed enable or doctor, which revokes
 * the identity it probed, as documented).
 *
 * <p>Built by {@link #builder()}; immutable configuration, thread-safe. Every operation reads the
 * activation state afresh and works on the registry generation that matches it.
 */
public final class Loopx {
  /** This library's version (also the version of every built-in provider). */
  public static final String VERSION = readVersion();

  private final ActivationStore store;
  private final FileSystem fileSystem;
  private final List<BuiltinContribution> builtins;
  private final ProcessLauncher launcher;
  private final RuntimeResolver resolver;
  private final Map<String, String> hostEnvironment;
  private final Map<String, byte[]> bundled;
  private final ManifestLoader loader = new ManifestLoader();
  private final RegistryHolder registry;
  private final CapabilityDispatch dispatch;
  private final AtomicReference<Published> published;

  private Loopx(Builder b, ActivationStore store, FileSystem fileSystem) {
    this.store = store;
    this.fileSystem = fileSystem;
    this.builtins = List.copyOf(b.builtins);
    this.launcher = b.launcher;
    this.resolver = RuntimeResolver.of(b.runtimeEnvironment);
    this.hostEnvironment = Map.copyOf(b.hostEnvironment);
    this.bundled = Map.copyOf(b.bundled);
    this.registry = RegistryHolder.of(compose(ActivationState.EMPTY, Map.of(), List.of()));
    this.dispatch =
        new CapabilityDispatch(
            store, resolver, launcher, hostEnvironment, fileSystem, b.policy, this::registry);
    this.published =
        new AtomicReference<>(new Published(ActivationState.EMPTY, Map.of(), registry.current()));
  }

  /** Returns a new builder. */
  public static Builder builder() {
    return new Builder();
  }

  // ---------------------------------------------------------------- manifests

  /** Loads and validates a manifest file ({@code MANIFEST_INVALID} / {@code API_INCOMPATIBLE}). */
  public LoadedManifest loadManifest(Path file) {
    return loader.load(file);
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
    return loader.parse(content, "bundled:" + id, fileSystem.getPath("").toAbsolutePath());
  }

  // ---------------------------------------------------------------- lifecycle

  /** Installs a new extension: validate, probe (execute only), then activate and enable it. */
  public ActivationReceipt install(LoadedManifest manifest, Mode mode) {
    return (ActivationReceipt)
        apply(new LifecycleCommand.Install(manifest.manifest()), Optional.of(manifest), mode);
  }

  /** Upgrades an installed extension to a new revision after probing it (execute only). */
  public ActivationReceipt upgrade(LoadedManifest manifest, Mode mode) {
    return (ActivationReceipt)
        apply(new LifecycleCommand.Upgrade(manifest.manifest()), Optional.of(manifest), mode);
  }

  /** Enables an extension after a fresh probe; a failed executed probe revokes its identity. */
  public ToggleReceipt enable(ExtensionId id, Mode mode) {
    return (ToggleReceipt) apply(new LifecycleCommand.Enable(id), Optional.empty(), mode);
  }

  /** Disables an extension (reversible; history and proofs are kept). */
  public ToggleReceipt disable(ExtensionId id, Mode mode) {
    return (ToggleReceipt) apply(new LifecycleCommand.Disable(id), Optional.empty(), mode);
  }

  /** Switches to the rollback revision after probing it (execute only); twice toggles back. */
  public RollbackReceipt rollback(ExtensionId id, Mode mode) {
    return (RollbackReceipt) apply(new LifecycleCommand.Rollback(id), Optional.empty(), mode);
  }

  /** Runs the doctor of one extension; executed, it records the proof or revokes the identity. */
  public DoctorPacket doctor(ExtensionId id, Mode mode) {
    return (DoctorPacket) apply(new LifecycleCommand.Doctor(id), Optional.empty(), mode);
  }

  /** Runs the doctor of every enabled extension. */
  public DoctorBatchReceipt doctorAllEnabled(Mode mode) {
    return (DoctorBatchReceipt)
        apply(new LifecycleCommand.DoctorAllEnabled(), Optional.empty(), mode);
  }

  /** Lists installed extensions, evaluating doctor freshness now. */
  public ExtensionList list() {
    return (ExtensionList)
        apply(new LifecycleCommand.ListExtensions(), Optional.empty(), Mode.PREVIEW);
  }

  /** Returns the activation state as currently stored. */
  public ActivationState state() {
    return store.read();
  }

  // ---------------------------------------------------------------- standalone run

  /**
   * Runs a standalone extension with a request read from {@code input} (SPEC §7); a preview checks
   * everything and starts nothing. The request is read and validated first (at most 1,000,000 bytes
   * consumed), before any state is read. See {@link RunRequest} and {@link RunReceipt}.
   *
   * @throws LoopxException {@code REQUEST_INVALID}; then (state errors aside) in this order {@code
   *     NOT_INSTALLED}, {@code EXTENSION_DISABLED}, {@code DOCTOR_STALE}, {@code RESOLUTION_FAILED}
   *     (not standalone), {@code PERMISSION_DENIED} (any declared permission). What the provider
   *     did is never an exception: it is the receipt's status.
   */
  public RunReceipt run(ExtensionId id, InputStream input, Mode mode) {
    RunRequest request = RunRequest.read(input);
    return new StandaloneRun(store, resolver, launcher, hostEnvironment, fileSystem)
        .run(id, request, mode);
  }

  /** As {@link #run(ExtensionId, InputStream, Mode)}, with the request given as bytes. */
  public RunReceipt run(ExtensionId id, byte[] input, Mode mode) {
    RunRequest request = RunRequest.parse(input);
    return new StandaloneRun(store, resolver, launcher, hostEnvironment, fileSystem)
        .run(id, request, mode);
  }

  // ---------------------------------------------------------------- capability dispatch

  /**
   * Dispatches an effectful capability request (SPEC §8): reads the request first (the same input
   * rules as {@link #run}), resolves exactly one ready implementation (or the named one), checks
   * the permission contract, asks the host's {@link DomainPolicy}, binds the execution envelope
   * and, when executing, runs the provider. A caller can never supply an envelope.
   */
  public DispatchReceipt dispatch(DispatchRequest request, InputStream input, Mode mode) {
    return dispatch.dispatch(request, RunRequest.read(input), mode);
  }

  /** As {@link #dispatch(DispatchRequest, InputStream, Mode)}, with the request given as bytes. */
  public DispatchReceipt dispatch(DispatchRequest request, byte[] input, Mode mode) {
    return dispatch.dispatch(request, RunRequest.parse(input), mode);
  }

  /**
   * Checks that extension-owned code may be entered in process for an operation needing {@code
   * permissions}: the extension is installed, enabled and doctor-fresh, and its active revision
   * declares them. Call it for every operation; disabling or upgrading affects the next check.
   */
  public ActivationRecord activation(ExtensionId id, Set<Permission> permissions) {
    return dispatch.activation(id, permissions);
  }

  // ---------------------------------------------------------------- catalog

  /**
   * Returns the registry generation matching the current activation state: built-ins, then
   * installed extensions with their lifecycle flags evaluated now.
   */
  public CapabilityRegistry registry() {
    return currentGeneration().registry();
  }

  /**
   * Returns a catalog that also holds declaration-only manifests ({@code declared=true}, nothing
   * installed or executed); an installed extension replaces a declaration with the same id.
   */
  public CapabilityRegistry catalog(List<LoadedManifest> declarations) {
    ActivationState state = store.read();
    return compose(state, freshness(state), declarations);
  }

  /**
   * Returns the generation matching the current state, publishing a new one when the state or the
   * freshness of a proof changed since the last one.
   */
  RegistryGeneration currentGeneration() {
    ActivationState state = store.read();
    Map<ExtensionId, Boolean> fresh = freshness(state);
    Published last = published.get();
    if (last.state().equals(state) && last.fresh().equals(fresh)) {
      return last.generation();
    }
    RegistryGeneration next = registry.publish(compose(state, fresh, List.of()));
    published.set(new Published(state, fresh, next));
    return next;
  }

  private record Published(
      ActivationState state, Map<ExtensionId, Boolean> fresh, RegistryGeneration generation) {}

  // ---------------------------------------------------------------- engine

  private Receipt apply(LifecycleCommand command, Optional<LoadedManifest> candidate, Mode mode) {
    boolean execute = mode.executes();
    ActivationState state = store.read();
    List<Target> targets = LifecyclePlanner.targets(state, command, execute);
    if (candidate.isPresent()) {
      checkCatalog(state, candidate.get().manifest());
    }
    Map<ExtensionId, Observation> observed = new HashMap<>();
    for (Target t : targets) {
      observed.put(t.id(), observe(t, candidate));
    }
    LifecyclePlan plan = LifecyclePlanner.plan(state, command, execute, observed);
    if (execute && !plan.changes().isEmpty()) {
      // The matching registry generation is published by the next reader (registry(), dispatch,
      // catalog), which re-reads the state anyway: several writes in a row compose it once.
      store.update(command.operation(), plan.changes());
    }
    if (plan.failure().isPresent()) {
      throw plan.failure().get();
    }
    return plan.receipt().orElseThrow();
  }

  /** Install and upgrade fail closed when the candidate would conflict with the catalog. */
  private void checkCatalog(ActivationState state, ExtensionManifest candidate) {
    ExtensionRecord record =
        ExtensionRecord.installed(
            RevisionSnapshot.of(candidate, Optional.empty()), Optional.empty());
    compose(state.with(candidate.id(), Optional.of(record)), freshness(state), List.of());
  }

  private Observation observe(Target target, Optional<LoadedManifest> candidate) {
    RuntimeSpec spec = target.manifest().runtime().orElseThrow();
    RuntimeResolution before = resolve(target, candidate);
    if (!(before instanceof RuntimeResolution.Resolved resolved)) {
      return new Observation(
          new RuntimeObservation.Unresolvable(((RuntimeResolution.Missing) before).reason()),
          Optional.empty());
    }
    RuntimeObservation runtime =
        new RuntimeObservation.Resolved(
            resolved.identity().value(), resolved.launcherPath().map(Path::toString));
    boolean probe =
        target.probe()
            && spec.doctorConfigured()
            && target.manifest().requiresLoopxApi().admits(ApiRange.CURRENT_API_VERSION);
    if (!probe) {
      // The ladder stops before the probe (not configured, incompatible) or none was asked for.
      return new Observation(runtime, Optional.empty());
    }
    LaunchResult result =
        launcher.launch(
            ProviderLaunch.request(
                    resolved,
                    spec,
                    spec.doctorArgs(),
                    hostEnvironment,
                    target.id(),
                    target.manifest().revision())
                .build());
    return new Observation(runtime, Optional.of(probeOutcome(result, resolved, target, candidate)));
  }

  private ProbeOutcome probeOutcome(
      LaunchResult result,
      RuntimeResolution.Resolved before,
      Target target,
      Optional<LoadedManifest> candidate) {
    if (result.outcome() != LaunchOutcome.EXITED) {
      return ProbeOutcome.failed(DoctorFailure.PROBE_EXECUTION_FAILED);
    }
    if (!result.exitedWithZero()) {
      return ProbeOutcome.failed(DoctorFailure.PROBE_NONZERO_EXIT);
    }
    RuntimeResolution after = resolve(target, candidate);
    if (!(after instanceof RuntimeResolution.Resolved a)
        || !a.identity().equals(before.identity())
        || !a.launcherPath().equals(before.launcherPath())) {
      return ProbeOutcome.failed(DoctorFailure.ENTRYPOINT_CHANGED_DURING_PROBE);
    }
    return ProbeOutcome.PASSED;
  }

  private RuntimeResolution resolve(Target target, Optional<LoadedManifest> candidate) {
    RuntimeSpec spec = target.manifest().runtime().orElseThrow();
    if (target.candidate()) {
      Path directory = candidate.orElseThrow().directory();
      return resolver.resolve(spec.launchTarget(), directory);
    }
    return resolver.resolveSaved(
        spec.launchTarget(), target.savedEntrypointPath().map(fileSystem::getPath));
  }

  /** Doctor freshness of every enabled installed extension, evaluated now. */
  private Map<ExtensionId, Boolean> freshness(ActivationState state) {
    Map<ExtensionId, Boolean> fresh = new LinkedHashMap<>();
    for (ExtensionRecord r : state.extensions().values()) {
      boolean ready = false;
      if (r.enabled() && r.active().manifest().runtime().isPresent()) {
        RuntimeResolution res =
            resolver.resolveSaved(
                r.active().manifest().runtime().get().launchTarget(),
                r.active().entrypointPath().map(fileSystem::getPath));
        ready =
            res instanceof RuntimeResolution.Resolved resolved
                && r.proofCovers(resolved.identity().value());
      }
      fresh.put(r.id(), ready);
    }
    return fresh;
  }

  private CapabilityRegistry compose(
      ActivationState state, Map<ExtensionId, Boolean> fresh, List<LoadedManifest> declarations) {
    RegistryAssembly assembly = CapabilityRegistry.assembly(VERSION).addBuiltins(builtins);
    for (LoadedManifest d : declarations) {
      assembly.declare(d.manifest());
    }
    for (ExtensionRecord r : state.extensions().values()) {
      assembly.install(
          new InstalledExtension(
              r.active().manifest(),
              r.enabled(),
              r.enabled() && fresh.getOrDefault(r.id(), false)));
    }
    return assembly.seal();
  }

  private static String readVersion() {
    try (InputStream in = Loopx.class.getResourceAsStream("loopx.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "0.0.0-unknown");
    } catch (IOException e) {
      return "0.0.0-unknown";
    }
  }

  /**
   * Builds a {@link Loopx}. Not thread-safe; {@link #build()} copies everything, so a builder may
   * be reused.
   */
  public static final class Builder {
    private Optional<ActivationStore> store = Optional.empty();
    private Optional<Path> stateFile = Optional.empty();
    private final List<BuiltinContribution> builtins = new ArrayList<>();
    private ProcessLauncher launcher = OsProcessLauncher.create();
    private RuntimeEnvironment runtimeEnvironment = RuntimeEnvironment.current();
    private Map<String, String> hostEnvironment = System.getenv();
    private final Map<String, byte[]> bundled = new LinkedHashMap<>();
    private DomainPolicy policy = DomainPolicy.denyAll();

    private Builder() {}

    /** Uses {@code policy} to decide effectful dispatches (default: deny all). */
    public Builder domainPolicy(DomainPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Keeps state at {@code <runtimeRoot>/extensions/state.json}. */
    public Builder runtimeRoot(Path runtimeRoot) {
      return stateFile(runtimeRoot.resolve("extensions").resolve("state.json"));
    }

    /** Keeps state in {@code stateFile} (lock at {@code stateFile + ".lock"}). */
    public Builder stateFile(Path stateFile) {
      this.stateFile = Optional.of(stateFile);
      this.store = Optional.empty();
      return this;
    }

    /** Uses a host-provided activation store (for example a shared database). */
    public Builder activationStore(ActivationStore store) {
      this.store = Optional.of(store);
      this.stateFile = Optional.empty();
      return this;
    }

    /** Adds a built-in contribution; contributions register in the order added. */
    public Builder builtin(BuiltinContribution contribution) {
      builtins.add(Objects.requireNonNull(contribution, "contribution"));
      return this;
    }

    /** Uses {@code launcher} to start providers (default: OS processes in their own group). */
    public Builder processLauncher(ProcessLauncher launcher) {
      this.launcher = Objects.requireNonNull(launcher, "launcher");
      return this;
    }

    /** Uses {@code environment} to resolve runtimes (PATH, java executable, code path). */
    public Builder runtimeEnvironment(RuntimeEnvironment environment) {
      this.runtimeEnvironment = Objects.requireNonNull(environment, "environment");
      return this;
    }

    /** Uses {@code environment} as the host environment handed to providers. */
    public Builder hostEnvironment(Map<String, String> environment) {
      this.hostEnvironment = Map.copyOf(environment);
      return this;
    }

    /** Registers a manifest shipped with the host, installable by {@code id}. */
    public Builder bundledManifest(String id, byte[] toml) {
      bundled.put(Objects.requireNonNull(id, "id"), toml.clone());
      return this;
    }

    /**
     * Builds the facade.
     *
     * @throws IllegalStateException when neither a runtime root, a state file nor a store is set
     */
    public Loopx build() {
      if (store.isPresent()) {
        return new Loopx(this, store.get(), runtimeEnvironment.javaExecutable().getFileSystem());
      }
      Path file =
          stateFile.orElseThrow(
              () -> new IllegalStateException("set runtimeRoot, stateFile or activationStore"));
      return new Loopx(this, FileActivationStore.at(file), file.getFileSystem());
    }
  }
}
