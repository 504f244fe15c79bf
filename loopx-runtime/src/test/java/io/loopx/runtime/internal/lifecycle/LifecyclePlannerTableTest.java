package io.loopx.runtime.internal.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ApiRange;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The lifecycle decision table: {not installed, enabled-fresh, enabled-stale, disabled} × {with
 * rollback, without} × every command, executed with a passing probe, and previewed.
 */
class LifecyclePlannerTableTest {
  static final ExtensionId ID = ExtensionId.of("ext");
  static final String OLD_IDENTITY = "0".repeat(64);
  static final String IDENTITY = "1".repeat(64);
  static final java.nio.file.Path DIRECTORY = java.nio.file.Path.of("/opt");

  static ExtensionManifest manifest(String version) {
    return new ExtensionManifest(
        ID,
        version,
        ApiRange.parse(">=1,<2"),
        List.of(),
        Optional.of(
            new RuntimeSpec(
                ProtocolId.of("ext_v0"),
                new LaunchTarget.Executable("bin/ext"),
                List.of(),
                List.of("--doctor"),
                List.of(),
                30)),
        List.of(),
        List.of(),
        List.of());
  }

  static ActivationState state(String kind, boolean rollback) {
    if (kind.equals("not_installed")) {
      return ActivationState.EMPTY;
    }
    RevisionSnapshot v1 = RevisionSnapshot.of(manifest("1"), Optional.of("/opt/ext"));
    RevisionSnapshot v2 = RevisionSnapshot.of(manifest("2"), Optional.of("/opt/ext"));
    String proven = kind.equals("enabled_stale") ? OLD_IDENTITY : IDENTITY;
    ExtensionRecord r = ExtensionRecords.installed(v1, Optional.of(proven));
    if (rollback) {
      r = ExtensionRecords.upgradedTo(r, v2, Optional.of(proven));
    }
    if (kind.equals("disabled")) {
      r = ExtensionRecords.withEnabled(r, false);
    }
    return ActivationState.EMPTY.with(ID, Optional.of(r));
  }

  static LifecycleCommand<?> command(String name, ActivationState state) {
    return switch (name) {
      case "install" -> new LifecycleCommand.Install(manifest("3"), DIRECTORY);
      case "upgrade" -> new LifecycleCommand.Upgrade(manifest("3"), DIRECTORY);
      case "upgrade_same" ->
          new LifecycleCommand.Upgrade(
              state.get(ID).map(r -> r.active().manifest()).orElse(manifest("1")), DIRECTORY);
      case "enable" -> new LifecycleCommand.Enable(ID);
      case "disable" -> new LifecycleCommand.Disable(ID);
      case "rollback" -> new LifecycleCommand.Rollback(ID);
      case "doctor" -> new LifecycleCommand.Doctor(ID);
      case "doctor_all" -> new LifecycleCommand.DoctorAll();
      case "list" -> new LifecycleCommand.ListExtensions();
      default -> throw new IllegalArgumentException(name);
    };
  }

  /** Runs targets → observe (every probe passes with IDENTITY) → plan; describes the outcome. */
  static String outcome(ActivationState state, LifecycleCommand<?> command, boolean execute) {
    Mode mode = execute ? Mode.EXECUTE : Mode.PREVIEW;
    try {
      Map<ExtensionId, Observation> observed = new HashMap<>();
      for (Target t : command.targets(state, mode)) {
        observed.put(
            t.id(),
            new Observation(
                new RuntimeObservation.Resolved(IDENTITY, Optional.of("/opt/ext")),
                t.probe() ? Optional.of(ProbeOutcome.PASSED) : Optional.empty()));
      }
      LifecyclePlan<?> plan = command.plan(state, mode, observed);
      if (plan.failure().isPresent()) {
        return "error:" + plan.failure().get().kind().wireName();
      }
      boolean changes = plan.changes().stream().anyMatch(EntryChange::changes);
      String json = plan.receipt().orElseThrow().toJson().toString();
      String extra = json.contains("\"doctor_verified\":true") ? "+verified" : "";
      if (json.contains("\"status\":\"disabled\"")) {
        extra += "+disabled";
      }
      return (changes ? "write" : "nowrite") + extra;
    } catch (LoopxException e) {
      return "error:" + e.kind().wireName();
    }
  }

  @ParameterizedTest(name = "{0} rollback={1} {2} -> {3} / preview {4}")
  @CsvSource({
    // state, rollback, command, executed outcome, preview outcome
    "not_installed, false, install,      write,                          nowrite",
    "not_installed, false, upgrade,      error:not_installed,            error:not_installed",
    "not_installed, false, upgrade_same, error:not_installed,            error:not_installed",
    "not_installed, false, enable,       error:not_installed,            error:not_installed",
    "not_installed, false, disable,      error:not_installed,            error:not_installed",
    "not_installed, false, rollback,     error:not_installed,            error:not_installed",
    "not_installed, false, doctor,       error:not_installed,            error:not_installed",
    "not_installed, false, doctor_all,   nowrite,                        nowrite",
    "not_installed, false, list,         nowrite,                        nowrite",
    "enabled_fresh, false, install,      error:already_installed,        error:already_installed",
    "enabled_fresh, false, upgrade,      write,                          nowrite",
    "enabled_fresh, false, upgrade_same, error:revision_already_active,  error:revision_already_active",
    "enabled_fresh, false, enable,       nowrite,                        nowrite",
    "enabled_fresh, false, disable,      write,                          nowrite",
    "enabled_fresh, false, rollback,     error:no_rollback_revision,     error:no_rollback_revision",
    "enabled_fresh, false, doctor,       nowrite,                        nowrite",
    "enabled_fresh, false, doctor_all,   nowrite,                        nowrite",
    "enabled_fresh, false, list,         nowrite+verified,               nowrite+verified",
    "enabled_fresh, true,  install,      error:already_installed,        error:already_installed",
    "enabled_fresh, true,  upgrade,      write,                          nowrite",
    "enabled_fresh, true,  upgrade_same, error:revision_already_active,  error:revision_already_active",
    "enabled_fresh, true,  enable,       nowrite,                        nowrite",
    "enabled_fresh, true,  disable,      write,                          nowrite",
    "enabled_fresh, true,  rollback,     write,                          nowrite",
    "enabled_fresh, true,  doctor,       nowrite,                        nowrite",
    "enabled_fresh, true,  doctor_all,   nowrite,                        nowrite",
    "enabled_fresh, true,  list,         nowrite+verified,               nowrite+verified",
    "enabled_stale, false, install,      error:already_installed,        error:already_installed",
    "enabled_stale, false, upgrade,      write,                          nowrite",
    "enabled_stale, false, upgrade_same, error:revision_already_active,  error:revision_already_active",
    "enabled_stale, false, enable,       write,                          nowrite",
    "enabled_stale, false, disable,      write,                          nowrite",
    "enabled_stale, false, rollback,     error:no_rollback_revision,     error:no_rollback_revision",
    "enabled_stale, false, doctor,       write,                          nowrite",
    "enabled_stale, false, doctor_all,   write,                          nowrite",
    "enabled_stale, false, list,         nowrite,                        nowrite",
    "enabled_stale, true,  install,      error:already_installed,        error:already_installed",
    "enabled_stale, true,  upgrade,      write,                          nowrite",
    "enabled_stale, true,  upgrade_same, error:revision_already_active,  error:revision_already_active",
    "enabled_stale, true,  enable,       write,                          nowrite",
    "enabled_stale, true,  disable,      write,                          nowrite",
    "enabled_stale, true,  rollback,     write,                          nowrite",
    "enabled_stale, true,  doctor,       write,                          nowrite",
    "enabled_stale, true,  doctor_all,   write,                          nowrite",
    "enabled_stale, true,  list,         nowrite,                        nowrite",
    "disabled,      false, install,      error:already_installed,        error:already_installed",
    "disabled,      false, upgrade,      write,                          nowrite",
    "disabled,      false, upgrade_same, error:revision_already_active,  error:revision_already_active",
    "disabled,      false, enable,       write,                          nowrite",
    "disabled,      false, disable,      nowrite,                        nowrite",
    "disabled,      false, rollback,     error:no_rollback_revision,     error:no_rollback_revision",
    "disabled,      false, doctor,       nowrite+disabled,               nowrite+disabled",
    "disabled,      false, doctor_all,   nowrite,                        nowrite",
    "disabled,      false, list,         nowrite,                        nowrite",
    "disabled,      true,  install,      error:already_installed,        error:already_installed",
    "disabled,      true,  upgrade,      write,                          nowrite",
    "disabled,      true,  upgrade_same, error:revision_already_active,  error:revision_already_active",
    "disabled,      true,  enable,       write,                          nowrite",
    "disabled,      true,  disable,      nowrite,                        nowrite",
    "disabled,      true,  rollback,     write,                          nowrite",
    "disabled,      true,  doctor,       nowrite+disabled,               nowrite+disabled",
    "disabled,      true,  doctor_all,   nowrite,                        nowrite",
    "disabled,      true,  list,         nowrite,                        nowrite",
  })
  void decisionTable(String kind, boolean rollback, String name, String executed, String preview) {
    ActivationState state = state(kind, rollback);
    LifecycleCommand<?> command = command(name, state);

    assertThat(outcome(state, command, true)).isEqualTo(executed);
    assertThat(outcome(state, command, false)).isEqualTo(preview);
  }
}
