package io.loopx.runtime.internal.run;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.internal.identity.Freshness;
import io.loopx.runtime.internal.identity.RuntimeResolution;
import io.loopx.runtime.internal.process.CallDeadline;
import io.loopx.runtime.internal.process.LaunchRequestBuilder;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.ExtensionRecord;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;

/**
 * The execute sequence that run and dispatch share (docs/threat-model.md, P2 and P3): {@link
 * #prepare} reads the extension's entry once and requires it enabled, at the revision the call was
 * resolved for (dispatch) and with a fresh doctor proof, resolving the runtime; {@link
 * Prepared#run} calls the provider with {@link ExecuteTimeCheck#require} right before the launch or
 * the worker frame, and after the call compares the runtime with the one proven: a change retires
 * the extension's workers, revokes the proof and discards the output ({@link ChangedDuringRun}).
 * The operation ({@code run} or {@code dispatch}) names the conflict message and the revoking state
 * update. Thread-safe (immutable).
 */
@API(status = API.Status.INTERNAL, since = "0.3")
public final class ProviderCall {
  private final ActivationStore store;
  private final Freshness freshness;
  private final ProviderLaunch providers;
  private final String operation;

  /** Creates the sequence of {@code operation} over the state in {@code store}. */
  public ProviderCall(
      ActivationStore store, Freshness freshness, ProviderLaunch providers, String operation) {
    this.store = store;
    this.freshness = freshness;
    this.providers = providers;
    this.operation = operation;
  }

  /**
   * Reads {@code id}'s entry and requires it installed and enabled, its active revision {@code
   * resolved} when given, and its doctor proof fresh.
   *
   * @throws io.loopx.api.LoopxException {@code NOT_INSTALLED}, {@code EXTENSION_DISABLED}, {@link
   *     ExecuteTimeCheck.RevisionMoved} or {@code DOCTOR_STALE}
   */
  public Prepared prepare(ExtensionId id, Optional<Revision> resolved) {
    return prepare(id, resolved, store.read());
  }

  /**
   * As {@link #prepare(ExtensionId, Optional)} on {@code state}, a state already read (a dispatch's
   * resolution read): no store read here; the execute-time check of {@link Prepared#run} reads the
   * entry right before the launch or the frame, so a change committed after {@code state} was read
   * still wins.
   */
  public Prepared prepare(ExtensionId id, Optional<Revision> resolved, ActivationState state) {
    ExtensionRecord record = ExtensionRecords.requireEnabled(state.installed(id));
    if (resolved.isPresent()) {
      ExecuteTimeCheck.requireRevision(record, resolved.get(), operation);
    }
    RuntimeResolution.Resolved runtime = freshness.requireFresh(record);
    return new Prepared(
        id, resolved.orElseGet(() -> record.active().manifest().revision()), record, runtime);
  }

  /** A call prepared on one read of the state; {@link #run} starts it. */
  public final class Prepared {
    private final ExtensionId id;
    private final Revision revision;
    private final ExtensionRecord record;
    private final RuntimeResolution.Resolved runtime;
    private boolean warm;

    private Prepared(
        ExtensionId id,
        Revision revision,
        ExtensionRecord record,
        RuntimeResolution.Resolved runtime) {
      this.id = id;
      this.revision = revision;
      this.record = record;
      this.runtime = runtime;
    }

    /** Returns whether {@link #run} was answered by a warm worker (else it ran one-shot). */
    public boolean warm() {
      return warm;
    }

    /** Returns the active revision's manifest, as read. */
    public ExtensionManifest manifest() {
      return record.active().manifest();
    }

    /**
     * Calls the provider with {@code extraArgs} and the one-shot launch shaped by {@code launch}
     * (its stdin, limits), bounded by {@code deadline}, on a warm worker unless {@code
     * forceOneShot} (see {@link ProviderLaunch#call}); returns its outcome, or {@link
     * ChangedDuringRun#outcome()} when the runtime changed during the call. An interrupted caller
     * still gets the checks after the call; its interrupt status is set again on return.
     *
     * @throws io.loopx.api.LoopxException what the execute-time check throws (nothing ran), or a
     *     failure to revoke the proof
     */
    public ProviderOutcome run(
        List<String> extraArgs,
        UnaryOperator<LaunchRequestBuilder> launch,
        CallDeadline deadline,
        boolean forceOneShot) {
      RuntimeSpec spec = manifest().runtime().orElseThrow();
      LaunchRequest oneShot =
          launch.apply(providers.request(runtime, spec, extraArgs, id, revision)).build();
      ProviderLaunch.Called called =
          providers.call(
              runtime,
              spec,
              extraArgs,
              id,
              revision,
              oneShot,
              deadline,
              forceOneShot,
              () -> ExecuteTimeCheck.require(store, id, revision, runtime, operation));
      warm = called.warm();
      // File reads and a revoking write would fail on an interrupted thread.
      boolean interrupted = Thread.interrupted();
      try {
        if (called.executableMismatch()
            || !freshness.unchangedSince(record, runtime, called.warm())) {
          providers.retireWorkers(id);
          ChangedDuringRun.revoke(store, id, runtime.identity().value(), operation);
          return ChangedDuringRun.outcome();
        }
        return called.outcome();
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
