package io.loopx.runtime.internal.lifecycle;

import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.internal.identity.RuntimeResolution;
import io.loopx.runtime.internal.identity.RuntimeResolver;
import io.loopx.runtime.internal.manifest.AccessRoots;
import io.loopx.runtime.internal.observe.JfrEvents;
import io.loopx.runtime.internal.process.StderrTail;
import io.loopx.runtime.internal.run.ProviderLaunch;
import io.loopx.runtime.internal.worker.Workers;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchResult;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Observes a {@link Target}: resolves its runtime and, when asked, runs the doctor probe and
 * re-resolves afterwards (a changed identity fails the probe). The only lifecycle step with I/O
 * besides the state store. A standalone extension is resolved and probed on the standalone side,
 * the one its runs use (docs/process.md#isolation). Thread-safe (immutable).
 */
final class Prober {
  private final Side capability;
  private final Side standalone;
  private final FileSystem fileSystem;
  private final AccessRoots accessRoots;

  /** What resolves and starts the providers of one kind of extension. */
  record Side(RuntimeResolver resolver, ProviderLaunch providers) {}

  Prober(Side capability, Side standalone, FileSystem fileSystem, AccessRoots accessRoots) {
    this.capability = capability;
    this.standalone = standalone;
    this.fileSystem = fileSystem;
    this.accessRoots = accessRoots;
  }

  Observation observe(Target target) {
    Side side = target.manifest().isStandalone() ? standalone : capability;
    RuntimeResolver resolver = side.resolver();
    ProviderLaunch providers = side.providers();
    RuntimeSpec spec = target.manifest().runtime().orElseThrow();
    RuntimeResolution before = resolve(target, resolver);
    if (before instanceof RuntimeResolution.Unsupported unsupported) {
      return new Observation(
          new RuntimeObservation.Unsupported(unsupported.reason()), Optional.empty());
    }
    if (!(before instanceof RuntimeResolution.Resolved resolved)) {
      return new Observation(
          new RuntimeObservation.Unresolvable(
              ((RuntimeResolution.Missing) before).reason(),
              ((RuntimeResolution.Missing) before).lookup()),
          Optional.empty());
    }
    RuntimeObservation runtime =
        new RuntimeObservation.Resolved(
            resolved.identity().value(), resolved.savedPath().map(Path::toString));
    boolean probeable =
        spec.doctorConfigured() && target.manifest().requiresLoopxApi().admitsCurrent();
    if (probeable && !accessRoots.unknown(spec.access()).isEmpty()) {
      // A declared root the host does not map: refused before anything starts, previews too
      // (docs/contract/doctor.md#probe, access_root_unknown).
      return new Observation(
          runtime, Optional.of(ProbeOutcome.failed(DoctorFailure.ACCESS_ROOT_UNKNOWN)));
    }
    boolean probe = target.probe() && probeable;
    if (!probe) {
      // The ladder stops before the probe (not configured, incompatible) or none was asked for.
      return new Observation(runtime, Optional.empty());
    }
    JfrEvents.DoctorProbe jfr = new JfrEvents.DoctorProbe();
    jfr.begin();
    LaunchResult result =
        providers.launch(
            providers
                .request(
                    resolved, spec, spec.doctorArgs(), target.id(), target.manifest().revision())
                .build());
    ProbeOutcome outcome = outcome(result, resolved, target, spec, side);
    jfr.end();
    if (jfr.shouldCommit()) {
      jfr.set(
          target.id().value(),
          target.manifest().revision().value(),
          outcome.failure().map(DoctorFailure::wireName).orElse("passed"));
      jfr.commit();
    }
    return new Observation(
        runtime,
        Optional.of(
            outcome
                .contained(providers.containment(), providers.memoryLimit(spec))
                .isolated(providers.reportedIsolation())));
  }

  /** The probe outcome with what the probe (or the failed worker) said. */
  private ProbeOutcome outcome(
      LaunchResult result,
      RuntimeResolution.Resolved before,
      Target target,
      RuntimeSpec spec,
      Side side) {
    if (result.outcome() == LaunchOutcome.EXECUTABLE_MISMATCH) {
      return ProbeOutcome.failed(DoctorFailure.ENTRYPOINT_CHANGED_DURING_PROBE).saying(result);
    }
    if (result.outcome() != LaunchOutcome.EXITED) {
      return ProbeOutcome.failed(DoctorFailure.PROBE_EXECUTION_FAILED).saying(result);
    }
    if (!result.exitedWithZero()) {
      return ProbeOutcome.failed(DoctorFailure.PROBE_NONZERO_EXIT).saying(result);
    }
    // A runtime with [runtime.worker] must also start as a worker: one is started like a pool's,
    // its handshake checked, and it is stopped (docs/contract/worker.md#doctor).
    Optional<Workers.HandshakeCheck> worker =
        side.providers().checkWorker(before, spec, target.id(), target.manifest().revision());
    if (worker.isPresent() && worker.get().failure().isPresent()) {
      DoctorFailure failure =
          worker.get().failure().get() == RunFailure.ENTRYPOINT_CHANGED_DURING_RUN
              ? DoctorFailure.ENTRYPOINT_CHANGED_DURING_PROBE
              : DoctorFailure.WORKER_HANDSHAKE_FAILED;
      return new ProbeOutcome(
          Optional.of(failure),
          Optional.empty(),
          OptionalInt.empty(),
          StderrTail.of(worker.get().stderr()),
          OptionalLong.empty(),
          worker.get().handshakeLine());
    }
    // Hashed again, never cached.
    RuntimeResolution after = resolve(target, side.resolver().uncached());
    if (!before.unchangedSince(after)) {
      return ProbeOutcome.failed(DoctorFailure.ENTRYPOINT_CHANGED_DURING_PROBE).saying(result);
    }
    return ProbeOutcome.PASSED.saying(result);
  }

  private RuntimeResolution resolve(Target target, RuntimeResolver using) {
    RuntimeSpec spec = target.manifest().runtime().orElseThrow();
    if (target.candidateDirectory().isPresent()) {
      return using.resolve(spec.launchTarget(), target.candidateDirectory().get());
    }
    return using.resolveSaved(
        spec.launchTarget(), target.savedEntrypointPath().map(fileSystem::getPath));
  }
}
