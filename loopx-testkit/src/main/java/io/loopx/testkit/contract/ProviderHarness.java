package io.loopx.testkit.contract;

import io.loopx.api.CapabilityId;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.Implementation;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.WorkerSpec;
import io.loopx.api.provider.ProviderMain;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.internal.conformance.ContractHook;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import io.loopx.runtime.spi.ProcessLauncher;
import io.loopx.runtime.state.ExtensionRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One provider installed with the real runtime in a sandbox (package-private): a {@link Loopx} on
 * {@code <sandbox>/runtime-root} whose providers see {@code HOME=<sandbox>/home}, and direct
 * launches of the provider with the argv and environment LoopX uses, in the empty working directory
 * {@code <sandbox>/work}.
 */
final class ProviderHarness {
  private static final int PREVIEW_CHARS = 400;

  final Path home;
  final Path work;
  final Loopx loopx;
  final LoadedManifest manifest;
  final ExtensionId id;
  final Optional<EnvelopeBinding> binding;
  private final Map<String, String> environment;
  private final ProcessLauncher launcher = ContractHook.processLauncher();

  private ProviderHarness(
      Path sandbox,
      Path manifestFile,
      Map<String, String> hostEnvironment,
      List<BuiltinContribution> builtins,
      Optional<EnvelopeBinding> binding) {
    try {
      this.home = Files.createDirectories(sandbox.resolve("home"));
      this.work = Files.createDirectories(sandbox.resolve("work"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the contract sandbox in " + sandbox, e);
    }
    Map<String, String> env = new LinkedHashMap<>(hostEnvironment);
    env.put("HOME", home.toString());
    this.environment = Map.copyOf(env);
    Loopx.Builder builder =
        Loopx.builder()
            .runtimeRoot(sandbox.resolve("runtime-root"))
            .hostEnvironment(environment)
            // A launcher of the host's own (LoopX's, wrapped) makes every call one-shot, even for a
            // manifest with [runtime.worker]: the one-shot checks test the one-shot protocol, and
            // this Loopx, never closed, starts no worker. The worker check starts its own.
            .processLauncher(oneShot(launcher))
            .domainPolicy(DomainPolicy.allowAll());
    builtins.forEach(builder::builtin);
    this.loopx = builder.build();
    this.manifest = LoadedManifest.load(manifestFile.toAbsolutePath());
    this.id = manifest.manifest().id();
    this.binding = binding;
  }

  /** {@code launcher} behind a launcher of another type, so that LoopX starts no worker on it. */
  private static ProcessLauncher oneShot(ProcessLauncher launcher) {
    return new ProcessLauncher() {
      @Override
      public LaunchResult launch(LaunchRequest request) {
        return launcher.launch(request);
      }

      @Override
      public Optional<Containment> containment() {
        return launcher.containment();
      }
    };
  }

  /** Creates the sandbox and loads the manifest (no install yet). */
  static ProviderHarness create(
      Path sandbox,
      Path manifestFile,
      Map<String, String> hostEnvironment,
      List<BuiltinContribution> builtins,
      Optional<EnvelopeBinding> binding) {
    return new ProviderHarness(sandbox, manifestFile, hostEnvironment, builtins, binding);
  }

  /**
   * Installs and enables the provider; install probes its doctor once.
   *
   * @throws AssertionError naming the failure when install fails (for example a doctor that is not
   *     ready)
   */
  LifecycleReceipt install() {
    try {
      return loopx.install(manifest, Mode.EXECUTE);
    } catch (LoopxException e) {
      throw new AssertionError(
          "installing "
              + manifest.source()
              + " failed ["
              + e.kind().wireName()
              + "]: "
              + e.getMessage(),
          e);
    }
  }

  /** Runs the doctor once more (executed). */
  DoctorReceipt doctor() {
    return loopx.doctor(id, Mode.EXECUTE);
  }

  /**
   * Sends {@code request} the way a host would: {@code Loopx.run} for a standalone provider, {@code
   * Loopx.dispatch} with the binding for an effectful one (executed).
   *
   * @throws LoopxException when LoopX refuses the request
   */
  ProviderOutcome send(byte[] request) {
    if (binding.isEmpty()) {
      return loopx.run(RunRequest.of(id, request), Mode.EXECUTE).outcome();
    }
    DispatchReceipt r =
        loopx.dispatch(dispatchRequest(binding.get()).input(request).build(), Mode.EXECUTE);
    return r.outcome();
  }

  /** The dispatch of the binding, through the implemented capability. */
  DispatchRequest.Builder dispatchRequest(EnvelopeBinding b) {
    ExtensionManifest m = manifest.manifest();
    CapabilityId capability =
        b.capabilityId()
            .orElseGet(
                () -> {
                  List<Implementation> all = m.implementations();
                  if (all.size() != 1) {
                    throw new AssertionError(
                        "the manifest of `"
                            + id
                            + "` implements "
                            + all.size()
                            + " capabilities; name one in EnvelopeBinding.capabilityId");
                  }
                  return all.get(0).capabilityId();
                });
    return DispatchRequest.builder(capability, runtime().protocol(), b.action())
        .scope(b.scope())
        .permission(b.permission())
        .providerId(ProviderId.of(id));
  }

  /** The installed record (after {@link #install()}). */
  ExtensionRecord record() {
    return loopx
        .state()
        .get(id)
        .orElseThrow(() -> new AssertionError("`" + id + "` is not installed"));
  }

  /** The active revision (after {@link #install()}). */
  Revision revision() {
    return record().activeRevision();
  }

  /**
   * Launches the provider directly, as LoopX starts it: the runtime resolved from the installed
   * revision, argv = its command prefix + the manifest's {@code args} + {@code extraArgs}, the host
   * environment (with the sandbox {@code HOME}) with {@code PATH} prefixed by the launcher's
   * directory and {@code LOOPX_EXTENSION_ID} / {@code LOOPX_EXTENSION_REVISION} set, the manifest's
   * timeout; the working directory is the empty sandbox directory.
   */
  LaunchResult direct(List<String> extraArgs, byte[] stdin) {
    Command command = command(extraArgs);
    return launcher.launch(
        ContractHook.request(
            new ContractHook.Command(command.argv(), command.environment()),
            work,
            stdin,
            Duration.ofSeconds(runtime().timeoutSeconds())));
  }

  /** An argv and the environment LoopX would start it with. */
  record Command(List<String> argv, Map<String, String> environment) {}

  /**
   * The command LoopX starts a worker of the installed revision with: argv = the command prefix +
   * the manifest's {@code args} + {@code runtime.worker.args}, the environment of {@link #direct}
   * plus {@code LOOPX_WORKER_PROTOCOL} set to the runtime's protocol.
   */
  Command workerCommand(WorkerSpec worker) {
    Command command = command(worker.args());
    Map<String, String> env = new LinkedHashMap<>(command.environment());
    env.put(ProviderMain.WORKER_PROTOCOL_VARIABLE, runtime().protocol().value());
    return new Command(command.argv(), Map.copyOf(env));
  }

  private Command command(List<String> extraArgs) {
    ExtensionRecord record = record();
    ContractHook.Command command;
    try {
      command =
          ContractHook.command(
              runtime(),
              record.active().entrypointPath().map(Path::of),
              environment,
              id,
              record.activeRevision(),
              extraArgs);
    } catch (IllegalStateException e) {
      throw new AssertionError(e.getMessage(), e);
    }
    return new Command(command.argv(), command.environment());
  }

  RuntimeSpec runtime() {
    return manifest
        .manifest()
        .runtime()
        .orElseThrow(() -> new AssertionError("the manifest of `" + id + "` has no [runtime]"));
  }

  /** Every path under {@code directory}, relative to it. */
  static List<String> contents(Path directory) {
    try (Stream<Path> walk = Files.walk(directory)) {
      return walk.filter(p -> !p.equals(directory))
          .map(p -> directory.relativize(p).toString())
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + directory, e);
    }
  }

  /** A one-line description of a launch for failure messages. */
  static String describe(LaunchResult r) {
    return r.outcome()
        + (r.exitCode().isPresent() ? " exit " + r.exitCode().getAsInt() : "")
        + r.startFailure().map(s -> " (" + s + ")").orElse("")
        + ", stdout: "
        + preview(r.stdout())
        + ", stderr: "
        + preview(r.stderr());
  }

  /** A one-line description of an outcome for failure messages. */
  static String describe(ProviderOutcome o) {
    return o.status().wireName()
        + o.failure().map(f -> " (" + f.wireName() + ")").orElse("")
        + (o.exitCode().isPresent() ? ", exit " + o.exitCode().getAsInt() : ", no exit code")
        + ", provider_result: "
        + o.providerResult().map(Object::toString).orElse("none");
  }

  private static String preview(byte[] bytes) {
    String s = new String(bytes, StandardCharsets.UTF_8).strip();
    if (s.isEmpty()) {
      return "(empty)";
    }
    return s.length() <= PREVIEW_CHARS ? s : s.substring(0, PREVIEW_CHARS) + "...";
  }
}
