package io.loopx.runtime.internal.run;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.identity.Freshness;
import io.loopx.runtime.internal.observe.CallFacts;
import io.loopx.runtime.internal.process.CallDeadline;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.state.ActivationStore;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The managed run of a standalone extension (docs/contract/run.md), behind {@code Loopx.run}.
 *
 * <p>The request has already been validated; first, still before any state is read, its
 * re-serialised form, the bytes the provider receives, is held to the same {@link
 * RequestBody#MAX_BYTES} cap ({@code 1e5} is re-spelled {@code 1E+5}, so it can grow). Then, on one
 * read of the activation state, in this order and in previews too: installed, enabled, doctor proof
 * fresh (the runtime resolved now from its saved location, its identity in the proof of the active
 * revision), standalone (no {@code [[provides]]} / {@code [[implements]]}), no permission declared.
 * An execute then starts exactly the runtime that was resolved and identified in the freshness
 * check: the only gap left is the one between hashing the files and the kernel's exec, which is
 * closed by detection: after the run the runtime is resolved again and its identity and file stamps
 * compared; a change discards the output ({@code entrypoint_changed_during_run}) and revokes the
 * proof. The execute sequence is {@link ProviderCall}'s, shared with dispatch.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class StandaloneRun {
  private final ProviderLaunch providers;
  private final ProviderCall calls;

  /** Creates the run over the state in {@code store}. */
  public StandaloneRun(ActivationStore store, Freshness freshness, ProviderLaunch providers) {
    this.providers = providers;
    this.calls = new ProviderCall(store, freshness, providers, "run");
  }

  /**
   * Runs extension {@code id} with the validated {@code request}, the provider bounded by the
   * smaller of the manifest timeout and {@code deadline}, on a warm worker unless {@code oneShot};
   * a preview starts nothing. The revision prepared and how the provider ran are noted in {@code
   * facts} for the call observers.
   */
  public RunReceipt run(
      ExtensionId id,
      RequestBody request,
      Mode mode,
      CallDeadline deadline,
      boolean oneShot,
      CallFacts facts) {
    // An upgrade or rollback committed after the state was read: the run starts again on it.
    return ExecuteTimeCheck.RevisionMoved.retried(
        () -> runOnce(id, request, mode, deadline, oneShot, facts));
  }

  private RunReceipt runOnce(
      ExtensionId id,
      RequestBody request,
      Mode mode,
      CallDeadline deadline,
      boolean oneShot,
      CallFacts facts) {
    byte[] stdin = request.providerInput();
    if (stdin.length > RequestBody.MAX_BYTES) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "request exceeds the "
              + RequestBody.MAX_BYTES
              + "-byte limit once re-serialised for the provider: "
              + stdin.length
              + " bytes");
    }
    ProviderCall.Prepared call = calls.prepare(id, Optional.empty());
    ExtensionManifest manifest = call.manifest();
    facts.revision(manifest.revision());
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
      return ProviderOutcomes.runPreview(manifest, request);
    }
    ProviderOutcome outcome =
        call.run(
            List.of(),
            launch ->
                launch
                    .stdin(stdin)
                    .stdoutLimit(LaunchRequest.DEFAULT_OUTPUT_LIMIT)
                    .stderrLimit(LaunchRequest.DEFAULT_OUTPUT_LIMIT),
            deadline,
            oneShot);
    facts.ran(call.warm() ? CallFacts.Path.WORKER : CallFacts.Path.ONE_SHOT);
    return ProviderOutcomes.runExecuted(
        manifest,
        request,
        outcome,
        providers.containment(),
        providers.memoryLimit(spec),
        providers.reportedIsolation());
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
