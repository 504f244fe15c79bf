package io.loopx.runtime.internal.dispatch;

import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import io.loopx.api.internal.ApiCompatibility;
import io.loopx.api.json.CanonicalJson;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.spi.BuiltinProvider;
import io.loopx.api.spi.Origin;
import io.loopx.registry.CapabilityRegistry;
import io.loopx.registry.ProviderEntry;
import io.loopx.registry.Resolution;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.CheckReceipt;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.internal.envelope.EnvelopeBinder;
import io.loopx.runtime.internal.identity.Freshness;
import io.loopx.runtime.internal.observe.CallFacts;
import io.loopx.runtime.internal.process.CallDeadline;
import io.loopx.runtime.internal.run.ExecuteTimeCheck;
import io.loopx.runtime.internal.run.ProviderCall;
import io.loopx.runtime.internal.run.ProviderLaunch;
import io.loopx.runtime.internal.run.ProviderOutcomes;
import io.loopx.runtime.internal.run.RequestBody;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.ExtensionRecord;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Governed capability dispatch and the activation check (docs/contract/dispatch.md), behind {@code
 * Loopx.dispatch} and {@code Loopx.check}.
 *
 * <p>Order: resolve exactly one ready implementation (or the caller-named one) on the registry
 * generation matching the current state → the extension's manifest declares the permission and its
 * runtime requires it → the host's {@link DomainPolicy} allows the action → the execution envelope
 * is bound → (execute only) the record the resolution read is checked (enabled, revision, doctor
 * proof), the runtime resolved and the launch prepared, and right before the launch the state is
 * read again and checked as a whole ({@link ExecuteTimeCheck}, so a disable that commits during the
 * policy or the hashing wins); then the provider runs: a bounded subprocess for an extension, the
 * trusted in-process handler for a built-in (no caps, no kill, no exit code). An executed dispatch
 * to an extension thus reads the state twice: once to resolve, once (one entry) right before the
 * launch or the worker frame (docs/store-postgresql.md#cost-per-operation).
 */
public final class CapabilityDispatch {
  private final ActivationStore store;
  private final Freshness freshness;
  private final ProviderLaunch providers;
  private final DomainPolicy policy;
  private final BiFunction<CapabilityId, Optional<ProviderId>, Resolvable> registry;
  private final ProviderCall calls;

  /** Memo of {@link #builtinRevision}, a pure function of (provider id, version). */
  private final ConcurrentHashMap<List<String>, Revision> builtinRevisions =
      new ConcurrentHashMap<>();

  /**
   * The registry generation a dispatch resolves on and the state it was composed from (one store
   * read): the call is prepared on that state; only the execute-time check reads the state again.
   */
  public record Resolvable(CapabilityRegistry registry, ActivationState state) {}

  /**
   * Creates the dispatch over the state in {@code store} and the current registry generation with
   * its state ({@code registry}, for a capability and an optional named provider).
   */
  public CapabilityDispatch(
      ActivationStore store,
      Freshness freshness,
      ProviderLaunch providers,
      DomainPolicy policy,
      BiFunction<CapabilityId, Optional<ProviderId>, Resolvable> registry) {
    this.store = store;
    this.freshness = freshness;
    this.providers = providers;
    this.policy = policy;
    this.registry = registry;
    this.calls = new ProviderCall(store, freshness, providers, "dispatch");
  }

  /**
   * Dispatches {@code request} with the validated {@code input}, the provider bounded by the
   * smaller of the manifest timeout and {@code deadline}, on a warm worker unless {@code oneShot};
   * a preview starts nothing. What it learns (the provider resolved, how it ran) is noted in {@code
   * facts} for the call observers.
   */
  public DispatchReceipt dispatch(
      DispatchRequest request,
      RequestBody input,
      Mode mode,
      CallDeadline deadline,
      boolean oneShot,
      CallFacts facts) {
    // An upgrade or rollback committed after the resolution: resolved again, on the new
    // generation (a queued worker request is served by the new revision's pool).
    return ExecuteTimeCheck.RevisionMoved.retried(
        () -> dispatchOnce(request, input, mode, deadline, oneShot, facts));
  }

  private DispatchReceipt dispatchOnce(
      DispatchRequest request,
      RequestBody input,
      Mode mode,
      CallDeadline deadline,
      boolean oneShot,
      CallFacts facts) {
    // Only the candidates of this capability (and a named provider) are checked for freshness.
    Resolvable current = registry.apply(request.capabilityId(), request.providerId());
    CapabilityRegistry generation = current.registry();
    Resolution resolution =
        request.providerId().isPresent()
            ? generation.resolve(
                request.capabilityId(), request.protocol(), request.providerId().get())
            : generation.resolve(request.capabilityId(), request.protocol());
    Resolution.ResolvedCapability resolved = resolution.orElseThrow();
    ProviderEntry provider = resolved.provider();
    boolean extension = provider.origin() == Origin.EXTENSION;
    Revision revision;
    if (extension) {
      ExtensionManifest manifest = provider.manifest().orElseThrow();
      revision = manifest.revision();
      facts.resolved(provider.id(), true, revision);
      checkPermission(manifest, request.permission());
    } else {
      revision =
          builtinRevisions.computeIfAbsent(
              List.of(provider.id().value(), provider.version()), k -> builtinRevision(provider));
      facts.resolved(provider.id(), false, revision);
    }
    DomainPolicy.Decision decision = policy.decide(request);
    if (!decision.allowed()) {
      throw new LoopxException(
          ErrorKind.POLICY_DENIED,
          "domain policy denied `" + request.action() + "`: " + decision.reason().orElse(""));
    }
    ExtensionId envelopeId = ExtensionId.of(provider.id());
    ProviderOutcome outcome;
    Optional<Containment> containment = Optional.empty();
    Optional<Isolation> isolation = Optional.empty();
    OptionalLong memoryLimit = OptionalLong.empty();
    if (extension) {
      // A subprocess reads the bound request's bytes: written (and size-checked) once here.
      EnvelopeBinder.Bound bound =
          EnvelopeBinder.bindForWire(
              request.action(), request.scope(), envelopeId, revision, input.bodyForReading());
      if (mode.executes()) {
        outcome =
            runExtension(
                envelopeId, revision, current.state(), request, bound, deadline, oneShot, facts);
        containment = providers.containment();
        isolation = providers.reportedIsolation();
        memoryLimit =
            provider
                .manifest()
                .flatMap(ExtensionManifest::runtime)
                .map(providers::memoryLimit)
                .orElse(OptionalLong.empty());
      } else {
        outcome = ProviderOutcomes.preview();
      }
    } else {
      // In process, the bound tree is handed over: its bytes are written only when the size check
      // needs them.
      ObjectNode bound =
          EnvelopeBinder.bind(
              request.action(), request.scope(), envelopeId, revision, input.bodyForReading());
      if (mode.executes()) {
        facts.ran(CallFacts.Path.IN_PROCESS);
        outcome = runBuiltin(resolved.implementation().inProcess().orElseThrow(), bound);
      } else {
        outcome = ProviderOutcomes.preview();
      }
    }
    return new DispatchReceiptRecord(
        request.capabilityId(),
        request.protocol(),
        request.action(),
        provider.id(),
        revision,
        mode,
        outcome,
        containment,
        memoryLimit,
        isolation);
  }

  private ProviderOutcome runExtension(
      ExtensionId id,
      Revision revision,
      ActivationState resolvedOn,
      DispatchRequest request,
      EnvelopeBinder.Bound bound,
      CallDeadline deadline,
      boolean oneShot,
      CallFacts facts) {
    ProviderCall.Prepared call;
    ProviderOutcome outcome;
    try {
      // Prepared on the state the dispatch was resolved on (no second read): the execute-time
      // check inside run() reads the entry right before the launch or the frame.
      call = calls.prepare(id, Optional.of(revision), resolvedOn);
      outcome =
          call.run(request.extraArgs(), launch -> launch.stdin(bound.stdin()), deadline, oneShot);
    } catch (LoopxException e) {
      if (e.kind() == ErrorKind.EXTENSION_DISABLED
          || e.kind() == ErrorKind.NOT_INSTALLED
          || e.kind() == ErrorKind.DOCTOR_STALE) {
        // Changed elsewhere (another process or host): its workers go now, not at the next watch.
        providers.retireWorkers(id);
      }
      throw e;
    }
    facts.ran(call.warm() ? CallFacts.Path.WORKER : CallFacts.Path.ONE_SHOT);
    return outcome;
  }

  /**
   * Trusted in-process code: no caps and no kill; a thrown exception is {@code provider_failed}.
   */
  @SuppressWarnings("IllegalCatch")
  private static ProviderOutcome runBuiltin(BuiltinProvider handler, ObjectNode bound) {
    try {
      ObjectNode response = handler.handle(bound);
      return response == null
          ? ProviderOutcomes.inProcessFailure()
          : ProviderOutcomes.inProcess(response);
    } catch (RuntimeException e) {
      return ProviderOutcomes.inProcessFailure();
    }
  }

  /** Checks that extension-owned code may be entered in process (see {@code Loopx.check}). */
  public CheckReceipt check(ExtensionId id, Set<Permission> permissions) {
    ExtensionRecord record = ExtensionRecords.requireEnabled(currentRecord(id));
    ExtensionManifest manifest = record.active().manifest();
    if (!manifest.requiresLoopxApi().admitsCurrent()) {
      throw new LoopxException(
          ErrorKind.API_INCOMPATIBLE, ApiCompatibility.message(id, manifest.requiresLoopxApi()));
    }
    freshness.requireFresh(record);
    for (Permission p : permissions) {
      if (!manifest.permissions().contains(p)) {
        throw new LoopxException(
            ErrorKind.PERMISSION_DENIED,
            "extension `" + id + "` does not declare permission `" + p + "`");
      }
    }
    return new CheckReceiptRecord(
        id, manifest.version(), record.activeRevision(), List.copyOf(permissions));
  }

  private ExtensionRecord currentRecord(ExtensionId id) {
    return store.read().installed(id);
  }

  private static void checkPermission(ExtensionManifest manifest, Permission permission) {
    if (!manifest.permissions().contains(permission)) {
      throw new LoopxException(
          ErrorKind.PERMISSION_DENIED,
          "extension `" + manifest.id() + "` does not declare permission `" + permission + "`");
    }
    boolean required =
        manifest.runtime().map(r -> r.requiredPermissions().contains(permission)).orElse(false);
    if (!required) {
      throw new LoopxException(
          ErrorKind.PERMISSION_DENIED,
          "extension `"
              + manifest.id()
              + "` runtime does not require permission `"
              + permission
              + "`");
    }
  }

  /**
   * A built-in provider has no manifest: its envelope revision is the first 16 hex of the SHA-256
   * of the canonical JSON {@code {"kind":"builtin","provider_id":…,"version":…}}, so it changes
   * with the library version.
   */
  static Revision builtinRevision(ProviderEntry provider) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("kind", "builtin");
    node.put("provider_id", provider.id().value());
    node.put("version", provider.version());
    return Revision.of(CanonicalJson.sha256Hex(node).substring(0, 16));
  }
}
