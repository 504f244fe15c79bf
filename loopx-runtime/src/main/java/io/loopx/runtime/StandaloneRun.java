package io.loopx.runtime;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.identity.RuntimeResolution;
import io.loopx.runtime.identity.RuntimeResolver;
import io.loopx.runtime.process.LaunchRequest;
import io.loopx.runtime.process.LaunchResult;
import io.loopx.runtime.process.ProcessLauncher;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import java.nio.file.FileSystem;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The managed run of a standalone extension (SPEC §7), behind {@link Loopx#run} (package-private).
 *
 * <p>The request has already been validated (before any state is read). Then, on one read of the
 * activation state, in this order and in previews too: installed, enabled, doctor proof fresh (the
 * runtime resolved now from its saved location, its identity in the proof of the active revision),
 * standalone (no {@code [[provides]]} / {@code [[implements]]}), no permission declared. An execute
 * then starts exactly the runtime that was resolved and identified in the freshness check: the only
 * gap left is the unavoidable one between hashing the files and the kernel's exec.
 */
final class StandaloneRun {
  private final ActivationStore store;
  private final RuntimeResolver resolver;
  private final ProcessLauncher launcher;
  private final Map<String, String> hostEnvironment;
  private final FileSystem fileSystem;

  StandaloneRun(
      ActivationStore store,
      RuntimeResolver resolver,
      ProcessLauncher launcher,
      Map<String, String> hostEnvironment,
      FileSystem fileSystem) {
    this.store = store;
    this.resolver = resolver;
    this.launcher = launcher;
    this.hostEnvironment = hostEnvironment;
    this.fileSystem = fileSystem;
  }

  RunReceipt run(ExtensionId id, RunRequest request, Mode mode) {
    ExtensionRecord record = store.read().installed(id).requireEnabled();
    RevisionSnapshot active = record.active();
    ExtensionManifest manifest = active.manifest();
    RuntimeResolution.Resolved runtime = freshRuntime(record, active, resolver, fileSystem);
    if (!manifest.isStandalone()) {
      throw new LoopxException(
          ErrorKind.RESOLUTION_FAILED,
          "run only accepts standalone extensions; invoke capability providers through their"
              + " capability or domain command (extension `"
              + id
              + "` declares "
              + declared(manifest)
              + ")");
    }
    RuntimeSpec spec = manifest.runtime().orElseThrow();
    Set<Permission> permissions = new LinkedHashSet<>(manifest.permissions());
    permissions.addAll(spec.requiredPermissions());
    if (!permissions.isEmpty()) {
      throw new LoopxException(
          ErrorKind.PERMISSION_DENIED,
          "extension `"
              + id
              + "` declares permissions "
              + List.copyOf(permissions)
              + "; standalone extension run grants no effect dispatch; invoke it through a"
              + " capability or domain command");
    }
    if (!mode.executes()) {
      return RunReceipt.preview(manifest, request);
    }
    LaunchRequest launch =
        ProviderLaunch.request(runtime, spec, List.of(), hostEnvironment, id, manifest.revision())
            .stdin(request.providerInput())
            .stdoutLimit(RunReceipt.OUTPUT_LIMIT)
            .stderrLimit(RunReceipt.OUTPUT_LIMIT)
            .build();
    LaunchResult result = launcher.launch(launch);
    return RunReceipt.executed(manifest, request, result);
  }

  /**
   * Resolves the active runtime from its saved location and requires the proof to cover it; throws
   * {@code DOCTOR_STALE} otherwise. Shared with capability dispatch.
   */
  static RuntimeResolution.Resolved freshRuntime(
      ExtensionRecord record,
      RevisionSnapshot active,
      RuntimeResolver resolver,
      FileSystem fileSystem) {
    if (active.manifest().runtime().isPresent()) {
      RuntimeResolution resolution =
          resolver.resolveSaved(
              active.manifest().runtime().get().launchTarget(),
              active.entrypointPath().map(fileSystem::getPath));
      if (resolution instanceof RuntimeResolution.Resolved resolved
          && record.proofCovers(resolved.identity().value())) {
        return resolved;
      }
    }
    throw new LoopxException(
        ErrorKind.DOCTOR_STALE,
        "extension `"
            + record.id()
            + "` doctor readiness is stale; run `loopx extension doctor "
            + record.id()
            + " --execute`");
  }

  private static String declared(ExtensionManifest manifest) {
    if (!manifest.provides().isEmpty() && !manifest.implementations().isEmpty()) {
      return "[[provides]] and [[implements]]";
    }
    if (!manifest.provides().isEmpty()) {
      return "[[provides]]";
    }
    if (!manifest.implementations().isEmpty()) {
      return "[[implements]]";
    }
    return "no [runtime]";
  }
}
