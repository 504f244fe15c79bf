package io.loopx.runtime.internal.lifecycle;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.lifecycle.LifecycleCommand.Disable;
import io.loopx.runtime.internal.lifecycle.LifecycleCommand.Doctor;
import io.loopx.runtime.internal.lifecycle.LifecycleCommand.Enable;
import io.loopx.runtime.internal.lifecycle.LifecycleCommand.Install;
import io.loopx.runtime.internal.lifecycle.LifecycleCommand.Rollback;
import io.loopx.runtime.internal.lifecycle.LifecycleCommand.Uninstall;
import io.loopx.runtime.internal.lifecycle.LifecycleCommand.Upgrade;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.lifecycle.DoctorAllReceipt;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorNotReadyException;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.lifecycle.ListReceipt;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The lifecycle decisions, as pure functions of (state, command, observations), reached through
 * {@link LifecycleCommand#targets} and {@link LifecycleCommand#plan}.
 *
 * <p>The targets check a command's preconditions and name the runtimes to observe; the plan
 * re-checks the preconditions and decides the receipt, the state changes (applied by the caller
 * only when executing) or the error. Neither performs I/O. Thread-safe (stateless).
 */
final class LifecyclePlanner {
  private LifecyclePlanner() {}

  static List<Target> installTargets(ActivationState state, Install command, Mode mode) {
    checkInstall(state, command);
    return List.of(candidate(command.manifest(), command.directory(), mode.executes()));
  }

  static List<Target> upgradeTargets(ActivationState state, Upgrade command, Mode mode) {
    checkUpgrade(state, command.manifest());
    return List.of(candidate(command.manifest(), command.directory(), mode.executes()));
  }

  static List<Target> rollbackTargets(ActivationState state, Rollback command, Mode mode) {
    ExtensionRecord r = state.installed(command.id());
    RevisionSnapshot t = rollbackTarget(r);
    return List.of(
        new Target(r.id(), t.manifest(), t.entrypointPath(), Optional.empty(), mode.executes()));
  }

  static LifecyclePlan<LifecycleReceipt> install(
      ActivationState state, Install command, Mode mode, Map<ExtensionId, Observation> obs) {
    ExtensionManifest m = checkInstall(state, command);
    Observation o = observation(obs, m.id());
    if (o.runtime() instanceof RuntimeObservation.Unsupported unsupported) {
      return LifecyclePlan.fail(unsupported(unsupported), List.of());
    }
    DoctorReceiptRecord packet = DoctorLadder.evaluate(m, true, o.runtime(), o.probe());
    if (!mode.executes()) {
      return LifecyclePlan.succeed(
          LifecycleReceiptRecord.install(m, Mode.PREVIEW, packet), List.of());
    }
    if (!packet.ready()) {
      return LifecyclePlan.fail(notReady("doctor", packet), List.of());
    }
    ExtensionRecord record =
        ExtensionRecords.installed(snapshot(m, o.runtime()), packet.entrypointIdentity());
    return LifecyclePlan.succeed(
        LifecycleReceiptRecord.install(m, Mode.EXECUTE, packet),
        List.of(new EntryChange(m.id(), Optional.empty(), Optional.of(record))));
  }

  static LifecyclePlan<LifecycleReceipt> upgrade(
      ActivationState state, Upgrade command, Mode mode, Map<ExtensionId, Observation> obs) {
    ExtensionManifest m = command.manifest();
    ExtensionRecord current = checkUpgrade(state, m);
    Observation o = observation(obs, m.id());
    if (o.runtime() instanceof RuntimeObservation.Unsupported unsupported) {
      return LifecyclePlan.fail(unsupported(unsupported), List.of());
    }
    DoctorReceiptRecord packet = DoctorLadder.evaluate(m, true, o.runtime(), o.probe());
    io.loopx.api.Revision previous = current.activeRevision();
    boolean proven =
        ExtensionRecords.provenFor(current, m.revision(), o.runtime().resolvedIdentity());
    if (!mode.executes()) {
      return LifecyclePlan.succeed(
          LifecycleReceiptRecord.upgrade(m, Mode.PREVIEW, previous, packet, proven), List.of());
    }
    if (!packet.ready()) {
      return LifecyclePlan.fail(notReady("doctor", packet), List.of());
    }
    ExtensionRecord next =
        ExtensionRecords.upgradedTo(current, snapshot(m, o.runtime()), packet.entrypointIdentity());
    return LifecyclePlan.succeed(
        LifecycleReceiptRecord.upgrade(m, Mode.EXECUTE, previous, packet, proven),
        List.of(new EntryChange(m.id(), Optional.of(current), Optional.of(next))));
  }

  static LifecyclePlan<LifecycleReceipt> enable(
      ActivationState state, Enable command, Mode mode, Map<ExtensionId, Observation> obs) {
    ExtensionRecord r = state.installed(command.id());
    Observation o = observation(obs, r.id());
    DoctorReceiptRecord packet =
        DoctorLadder.evaluate(r.active().manifest(), true, o.runtime(), o.probe());
    if (!mode.executes()) {
      return LifecyclePlan.succeed(
          LifecycleReceiptRecord.toggle(
              "enable",
              Mode.PREVIEW,
              false,
              !r.enabled(),
              r.id(),
              r.enabled(),
              r.activeRevision(),
              Optional.<DoctorReceipt>of(packet)),
          List.of());
    }
    if (!packet.ready()) {
      List<EntryChange> revoke =
          revocable(packet)
              .map(i -> List.of(change(r, ExtensionRecords.withRevoked(r, i))))
              .orElse(List.of());
      return LifecyclePlan.fail(notReady("enable doctor", packet), revoke);
    }
    ExtensionRecord next =
        ExtensionRecords.withVerified(
            ExtensionRecords.withEnabled(r, true),
            r.activeRevision(),
            packet.entrypointIdentity().get());
    return LifecyclePlan.succeed(
        LifecycleReceiptRecord.toggle(
            "enable",
            Mode.EXECUTE,
            !r.enabled(),
            !r.enabled(),
            r.id(),
            true,
            r.activeRevision(),
            Optional.<DoctorReceipt>of(packet)),
        List.of(change(r, next)));
  }

  static LifecyclePlan<LifecycleReceipt> disable(
      ActivationState state, Disable command, Mode mode) {
    ExtensionRecord r = state.installed(command.id());
    if (!mode.executes()) {
      return LifecyclePlan.succeed(
          LifecycleReceiptRecord.toggle(
              "disable",
              Mode.PREVIEW,
              false,
              r.enabled(),
              r.id(),
              r.enabled(),
              r.activeRevision(),
              Optional.empty()),
          List.of());
    }
    return LifecyclePlan.succeed(
        LifecycleReceiptRecord.toggle(
            "disable",
            Mode.EXECUTE,
            r.enabled(),
            r.enabled(),
            r.id(),
            false,
            r.activeRevision(),
            Optional.empty()),
        List.of(change(r, ExtensionRecords.withEnabled(r, false))));
  }

  static LifecyclePlan<LifecycleReceipt> uninstall(
      ActivationState state, Uninstall command, Mode mode) {
    ExtensionRecord r = checkUninstall(state, command.id());
    List<io.loopx.api.Revision> revisions =
        r.revisions().stream().map(RevisionSnapshot::revision).toList();
    if (!mode.executes()) {
      return LifecyclePlan.succeed(
          LifecycleReceiptRecord.uninstall(Mode.PREVIEW, r.id(), revisions), List.of());
    }
    return LifecyclePlan.succeed(
        LifecycleReceiptRecord.uninstall(Mode.EXECUTE, r.id(), revisions),
        List.of(new EntryChange(r.id(), Optional.of(r), Optional.empty())));
  }

  /** Uninstall needs an installed, disabled extension. */
  static ExtensionRecord checkUninstall(ActivationState state, ExtensionId id) {
    ExtensionRecord r = state.installed(id);
    if (r.enabled()) {
      throw new LoopxException(
          ErrorKind.EXTENSION_ENABLED,
          "extension `" + id + "` is enabled; disable it before uninstalling");
    }
    return r;
  }

  static LifecyclePlan<LifecycleReceipt> rollback(
      ActivationState state, Rollback command, Mode mode, Map<ExtensionId, Observation> obs) {
    ExtensionRecord r = state.installed(command.id());
    RevisionSnapshot target = rollbackTarget(r);
    Observation o = observation(obs, r.id());
    DoctorReceiptRecord packet =
        DoctorLadder.evaluate(target.manifest(), true, o.runtime(), o.probe());
    boolean proven =
        ExtensionRecords.provenFor(r, target.revision(), o.runtime().resolvedIdentity());
    if (!mode.executes()) {
      return LifecyclePlan.succeed(
          LifecycleReceiptRecord.rollback(
              Mode.PREVIEW,
              r.id(),
              target.version(),
              target.revision(),
              r.activeRevision(),
              r.enabled(),
              packet,
              proven),
          List.of());
    }
    if (!packet.ready()) {
      return LifecyclePlan.fail(notReady("rollback doctor", packet), List.of());
    }
    return LifecyclePlan.succeed(
        LifecycleReceiptRecord.rollback(
            Mode.EXECUTE,
            r.id(),
            target.version(),
            target.revision(),
            r.activeRevision(),
            true,
            packet,
            proven),
        List.of(change(r, ExtensionRecords.rolledBack(r, packet.entrypointIdentity().get()))));
  }

  static LifecyclePlan<DoctorReceipt> doctor(
      ActivationState state, Doctor command, Mode mode, Map<ExtensionId, Observation> obs) {
    ExtensionRecord r = state.installed(command.id());
    Observation o = observation(obs, r.id());
    DoctorReceiptRecord packet =
        DoctorLadder.evaluate(r.active().manifest(), r.enabled(), o.runtime(), o.probe());
    List<EntryChange> changes = new ArrayList<>();
    if (mode.executes()) {
      recordDoctor(r, packet).ifPresent(changes::add);
    }
    return LifecyclePlan.succeed(packet, changes);
  }

  static LifecyclePlan<DoctorAllReceipt> doctorAll(
      ActivationState state, Mode mode, Map<ExtensionId, Observation> obs) {
    List<DoctorReceipt> packets = new ArrayList<>();
    List<EntryChange> changes = new ArrayList<>();
    for (ExtensionRecord r : state.extensions().values()) {
      if (!r.enabled()) {
        continue;
      }
      Observation o = observation(obs, r.id());
      DoctorReceiptRecord packet =
          DoctorLadder.evaluate(r.active().manifest(), true, o.runtime(), o.probe());
      packets.add(packet);
      if (mode.executes()) {
        recordDoctor(r, packet).ifPresent(changes::add);
      }
    }
    return LifecyclePlan.succeed(new DoctorAllReceiptRecord(mode, packets), changes);
  }

  static LifecyclePlan<ListReceipt> list(ActivationState state, Map<ExtensionId, Observation> obs) {
    List<ListReceipt.Entry> rows = new ArrayList<>();
    for (ExtensionRecord r : state.extensions().values()) {
      boolean verified = r.enabled() && observation(obs, r.id()).runtime().coveredBy(r);
      rows.add(
          new ListReceiptRecord.EntryRecord(
              r.id(),
              r.enabled(),
              r.activeRevision(),
              r.rollbackAvailable(),
              verified,
              r.revisions().size()));
    }
    return LifecyclePlan.succeed(new ListReceiptRecord(rows), List.of());
  }

  /** An executed doctor records a proof when ready and revokes the probed identity otherwise. */
  private static Optional<EntryChange> recordDoctor(ExtensionRecord r, DoctorReceiptRecord packet) {
    if (packet.ready()) {
      return Optional.of(
          change(
              r,
              ExtensionRecords.withVerified(
                  r, r.activeRevision(), packet.entrypointIdentity().get())));
    }
    if (packet.status() == DoctorStatus.DISABLED) {
      return Optional.empty();
    }
    return revocable(packet).map(i -> change(r, ExtensionRecords.withRevoked(r, i)));
  }

  /**
   * The identity a failed doctor or enable revokes: the probed one, but none when the host refused
   * the revision before any probe ({@code access_root_unknown}: its mapping, not the runtime, is at
   * fault), so that refusal leaves the state unchanged.
   */
  private static Optional<String> revocable(DoctorReceiptRecord packet) {
    return packet.failure().equals(Optional.of(DoctorFailure.ACCESS_ROOT_UNKNOWN))
        ? Optional.empty()
        : packet.probedEntrypointIdentity();
  }

  private static ExtensionManifest checkInstall(ActivationState state, Install command) {
    ExtensionManifest m = command.manifest();
    if (state.get(m.id()).isPresent()) {
      throw new LoopxException(
          ErrorKind.ALREADY_INSTALLED, "extension `" + m.id() + "` is already installed");
    }
    requireRuntime(m);
    return m;
  }

  private static ExtensionRecord checkUpgrade(ActivationState state, ExtensionManifest m) {
    ExtensionRecord r = state.installed(m.id());
    if (r.activeRevision().equals(m.revision())) {
      throw new LoopxException(
          ErrorKind.REVISION_ALREADY_ACTIVE,
          "extension `" + m.id() + "` revision is already active");
    }
    requireRuntime(m);
    return r;
  }

  private static void requireRuntime(ExtensionManifest m) {
    if (m.runtime().isEmpty()) {
      throw new LoopxException(
          ErrorKind.MANIFEST_INVALID,
          "extension `" + m.id() + "` declares no [runtime]; install needs a runtime");
    }
  }

  private static RevisionSnapshot rollbackTarget(ExtensionRecord r) {
    return r.rollbackRevision()
        .flatMap(r::snapshot)
        .orElseThrow(
            () ->
                new LoopxException(
                    ErrorKind.NO_ROLLBACK_REVISION,
                    "extension `" + r.id() + "` has no rollback revision"));
  }

  static Target active(ExtensionRecord r, boolean probe) {
    RevisionSnapshot s = r.active();
    return new Target(r.id(), s.manifest(), s.entrypointPath(), Optional.empty(), probe);
  }

  private static Target candidate(ExtensionManifest m, Path directory, boolean probe) {
    return new Target(m.id(), m, Optional.empty(), Optional.of(directory), probe);
  }

  static List<Target> enabledTargets(ActivationState state, boolean probe) {
    List<Target> targets = new ArrayList<>();
    for (ExtensionRecord r : state.extensions().values()) {
      if (r.enabled()) {
        targets.add(active(r, probe));
      }
    }
    return targets;
  }

  private static Observation observation(Map<ExtensionId, Observation> obs, ExtensionId id) {
    Observation o = obs.get(id);
    if (o == null) {
      throw new IllegalArgumentException("no observation of " + id);
    }
    return o;
  }

  private static RevisionSnapshot snapshot(ExtensionManifest m, RuntimeObservation runtime) {
    Optional<String> path =
        runtime instanceof RuntimeObservation.Resolved r ? r.entrypointPath() : Optional.empty();
    return RevisionSnapshot.of(m, path);
  }

  private static EntryChange change(ExtensionRecord before, ExtensionRecord after) {
    return new EntryChange(before.id(), Optional.of(before), Optional.of(after));
  }

  private static LoopxException unsupported(RuntimeObservation.Unsupported runtime) {
    return new LoopxException(ErrorKind.ENTRYPOINT_UNSUPPORTED, runtime.reason());
  }

  private static LoopxException notReady(String what, DoctorReceiptRecord packet) {
    return new DoctorNotReadyException(packet.notReadyMessage(what), packet);
  }
}
