package io.loopx.runtime.internal.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorStatus;
import java.util.Optional;

/** The doctor ladder: the status of one revision from what was observed of it. Pure. */
final class DoctorLadder {
  private DoctorLadder() {}

  /**
   * Evaluates the ladder (docs/contract/doctor.md) for one revision. Pure: everything observed is
   * passed in.
   *
   * @param manifest the revision's manifest (must have a runtime)
   * @param enabled whether the extension is enabled ({@code false} yields {@code disabled})
   * @param observation the runtime resolution before any probe
   * @param probe the executed probe's outcome; empty for a preview
   */
  static DoctorReceiptRecord evaluate(
      ExtensionManifest manifest,
      boolean enabled,
      RuntimeObservation observation,
      Optional<ProbeOutcome> probe) {
    ExtensionId id = manifest.id();
    String version = manifest.version();
    Optional<String> probed = observation.resolvedIdentity();
    if (!enabled) {
      return blocked(id, version, DoctorStatus.DISABLED, probed, Optional.empty());
    }
    if (!manifest.requiresLoopxApi().admitsCurrent()) {
      return blocked(id, version, DoctorStatus.API_INCOMPATIBLE, probed, Optional.empty());
    }
    boolean configured = manifest.runtime().map(r -> r.doctorConfigured()).orElse(false);
    if (!configured) {
      return blocked(
          id,
          version,
          DoctorStatus.DOCTOR_NOT_CONFIGURED,
          probed,
          Optional.of(DoctorFailure.DOCTOR_NOT_CONFIGURED));
    }
    if (observation instanceof RuntimeObservation.Unresolvable unresolvable) {
      return DoctorReceiptRecord.unprobed(
          id,
          version,
          DoctorStatus.ENTRYPOINT_MISSING,
          false,
          probed,
          Optional.empty(),
          Optional.of(unresolvable.lookup()));
    }
    if (observation instanceof RuntimeObservation.Unsupported) {
      return blocked(id, version, DoctorStatus.ENTRYPOINT_UNSUPPORTED, probed, Optional.empty());
    }
    if (probe.isEmpty()) {
      return DoctorReceiptRecord.unprobed(
          id,
          version,
          DoctorStatus.PROBE_REQUIRED,
          true,
          probed,
          Optional.empty(),
          Optional.empty());
    }
    ProbeOutcome outcome = probe.get();
    boolean passed = outcome.passed();
    return new DoctorReceiptRecord(
        id,
        version,
        passed ? DoctorStatus.READY : DoctorStatus.PROVIDER_UNAVAILABLE,
        passed,
        passed,
        passed ? probed : Optional.empty(),
        probed,
        outcome.failure(),
        outcome.containment(),
        outcome.exitCode(),
        outcome.stderrTail(),
        Optional.empty(),
        outcome.memoryLimit(),
        outcome.handshakeLine(),
        outcome.isolation());
  }

  /** A packet of a revision the ladder stopped before the probe: no probe ran. */
  private static DoctorReceiptRecord blocked(
      ExtensionId id,
      String version,
      DoctorStatus status,
      Optional<String> probed,
      Optional<DoctorFailure> failure) {
    return DoctorReceiptRecord.unprobed(
        id, version, status, false, probed, failure, Optional.empty());
  }
}
