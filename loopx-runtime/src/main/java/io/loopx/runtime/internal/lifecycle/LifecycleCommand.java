package io.loopx.runtime.internal.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.runtime.Mode;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.lifecycle.DoctorAllReceipt;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.lifecycle.ListReceipt;
import io.loopx.runtime.state.ActivationState;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A lifecycle command whose receipt is an {@code R}. Each command names the runtimes to observe
 * ({@link #targets}) and then decides ({@link #plan}) through {@link LifecyclePlanner}, so the
 * engine returns the typed receipt without a cast.
 *
 * @param <R> the receipt of a successful command
 */
public sealed interface LifecycleCommand<R extends Receipt> {

  /** Returns the operation name used in receipts and conflict messages. */
  String operation();

  /** Returns the extension this command is about; empty for doctor-all and list. */
  default Optional<ExtensionId> extensionId() {
    return Optional.empty();
  }

  /** Returns the new manifest this command would activate (install, upgrade), checked first. */
  default Optional<ExtensionManifest> candidate() {
    return Optional.empty();
  }

  /**
   * Checks the preconditions against {@code state} and returns the runtimes that must be observed
   * (and, when executing, probed) before planning.
   */
  List<Target> targets(ActivationState state, Mode mode);

  /**
   * Decides the outcome; {@code observed} holds an observation of every target of {@link #targets}.
   */
  LifecyclePlan<R> plan(ActivationState state, Mode mode, Map<ExtensionId, Observation> observed);

  /**
   * Install a new extension from a validated manifest.
   *
   * @param manifest the candidate manifest
   * @param directory the directory its launch target resolves against
   */
  record Install(ExtensionManifest manifest, Path directory)
      implements LifecycleCommand<LifecycleReceipt> {
    /** Rejects nulls. */
    public Install {
      Objects.requireNonNull(manifest, "manifest");
      Objects.requireNonNull(directory, "directory");
    }

    @Override
    public String operation() {
      return "install";
    }

    @Override
    public Optional<ExtensionManifest> candidate() {
      return Optional.of(manifest);
    }

    @Override
    public Optional<ExtensionId> extensionId() {
      return Optional.of(manifest.id());
    }

    @Override
    public List<Target> targets(ActivationState state, Mode mode) {
      return LifecyclePlanner.installTargets(state, this, mode);
    }

    @Override
    public LifecyclePlan<LifecycleReceipt> plan(
        ActivationState state, Mode mode, Map<ExtensionId, Observation> observed) {
      return LifecyclePlanner.install(state, this, mode, observed);
    }
  }

  /**
   * Upgrade an installed extension to a new manifest revision.
   *
   * @param manifest the candidate manifest
   * @param directory the directory its launch target resolves against
   */
  record Upgrade(ExtensionManifest manifest, Path directory)
      implements LifecycleCommand<LifecycleReceipt> {
    /** Rejects nulls. */
    public Upgrade {
      Objects.requireNonNull(manifest, "manifest");
      Objects.requireNonNull(directory, "directory");
    }

    @Override
    public String operation() {
      return "upgrade";
    }

    @Override
    public Optional<ExtensionManifest> candidate() {
      return Optional.of(manifest);
    }

    @Override
    public Optional<ExtensionId> extensionId() {
      return Optional.of(manifest.id());
    }

    @Override
    public List<Target> targets(ActivationState state, Mode mode) {
      return LifecyclePlanner.upgradeTargets(state, this, mode);
    }

    @Override
    public LifecyclePlan<LifecycleReceipt> plan(
        ActivationState state, Mode mode, Map<ExtensionId, Observation> observed) {
      return LifecyclePlanner.upgrade(state, this, mode, observed);
    }
  }

  /**
   * Enable an extension after a fresh doctor probe.
   *
   * @param id the extension
   */
  record Enable(ExtensionId id) implements LifecycleCommand<LifecycleReceipt> {
    /** Rejects null. */
    public Enable {
      Objects.requireNonNull(id, "id");
    }

    @Override
    public String operation() {
      return "enable";
    }

    @Override
    public Optional<ExtensionId> extensionId() {
      return Optional.of(id);
    }

    @Override
    public List<Target> targets(ActivationState state, Mode mode) {
      return List.of(LifecyclePlanner.active(state.installed(id), mode.executes()));
    }

    @Override
    public LifecyclePlan<LifecycleReceipt> plan(
        ActivationState state, Mode mode, Map<ExtensionId, Observation> observed) {
      return LifecyclePlanner.enable(state, this, mode, observed);
    }
  }

  /**
   * Disable an extension (reversible; history and proofs are kept).
   *
   * @param id the extension
   */
  record Disable(ExtensionId id) implements LifecycleCommand<LifecycleReceipt> {
    /** Rejects null. */
    public Disable {
      Objects.requireNonNull(id, "id");
    }

    @Override
    public String operation() {
      return "disable";
    }

    @Override
    public Optional<ExtensionId> extensionId() {
      return Optional.of(id);
    }

    @Override
    public List<Target> targets(ActivationState state, Mode mode) {
      state.installed(id);
      return List.of();
    }

    @Override
    public LifecyclePlan<LifecycleReceipt> plan(
        ActivationState state, Mode mode, Map<ExtensionId, Observation> observed) {
      return LifecyclePlanner.disable(state, this, mode);
    }
  }

  /**
   * Switch an extension back to its rollback revision after probing it.
   *
   * @param id the extension
   */
  record Rollback(ExtensionId id) implements LifecycleCommand<LifecycleReceipt> {
    /** Rejects null. */
    public Rollback {
      Objects.requireNonNull(id, "id");
    }

    @Override
    public String operation() {
      return "rollback";
    }

    @Override
    public Optional<ExtensionId> extensionId() {
      return Optional.of(id);
    }

    @Override
    public List<Target> targets(ActivationState state, Mode mode) {
      return LifecyclePlanner.rollbackTargets(state, this, mode);
    }

    @Override
    public LifecyclePlan<LifecycleReceipt> plan(
        ActivationState state, Mode mode, Map<ExtensionId, Observation> observed) {
      return LifecyclePlanner.rollback(state, this, mode, observed);
    }
  }

  /**
   * Remove a disabled extension's entry and its whole revision history.
   *
   * @param id the extension
   */
  record Uninstall(ExtensionId id) implements LifecycleCommand<LifecycleReceipt> {
    /** Rejects null. */
    public Uninstall {
      Objects.requireNonNull(id, "id");
    }

    @Override
    public String operation() {
      return "uninstall";
    }

    @Override
    public Optional<ExtensionId> extensionId() {
      return Optional.of(id);
    }

    @Override
    public List<Target> targets(ActivationState state, Mode mode) {
      LifecyclePlanner.checkUninstall(state, id);
      return List.of();
    }

    @Override
    public LifecyclePlan<LifecycleReceipt> plan(
        ActivationState state, Mode mode, Map<ExtensionId, Observation> observed) {
      return LifecyclePlanner.uninstall(state, this, mode);
    }
  }

  /**
   * Run the doctor of one extension.
   *
   * @param id the extension
   */
  record Doctor(ExtensionId id) implements LifecycleCommand<DoctorReceipt> {
    /** Rejects null. */
    public Doctor {
      Objects.requireNonNull(id, "id");
    }

    @Override
    public String operation() {
      return "doctor";
    }

    @Override
    public Optional<ExtensionId> extensionId() {
      return Optional.of(id);
    }

    @Override
    public List<Target> targets(ActivationState state, Mode mode) {
      var r = state.installed(id);
      return List.of(LifecyclePlanner.active(r, mode.executes() && r.enabled()));
    }

    @Override
    public LifecyclePlan<DoctorReceipt> plan(
        ActivationState state, Mode mode, Map<ExtensionId, Observation> observed) {
      return LifecyclePlanner.doctor(state, this, mode, observed);
    }
  }

  /** Run the doctor of every enabled extension. */
  record DoctorAll() implements LifecycleCommand<DoctorAllReceipt> {
    @Override
    public String operation() {
      return "doctor";
    }

    @Override
    public List<Target> targets(ActivationState state, Mode mode) {
      return LifecyclePlanner.enabledTargets(state, mode.executes());
    }

    @Override
    public LifecyclePlan<DoctorAllReceipt> plan(
        ActivationState state, Mode mode, Map<ExtensionId, Observation> observed) {
      return LifecyclePlanner.doctorAll(state, mode, observed);
    }
  }

  /** List installed extensions (never probes, never writes). */
  record ListExtensions() implements LifecycleCommand<ListReceipt> {
    @Override
    public String operation() {
      return "list";
    }

    @Override
    public List<Target> targets(ActivationState state, Mode mode) {
      return LifecyclePlanner.enabledTargets(state, false);
    }

    @Override
    public LifecyclePlan<ListReceipt> plan(
        ActivationState state, Mode mode, Map<ExtensionId, Observation> observed) {
      return LifecyclePlanner.list(state, observed);
    }
  }
}
