package io.loopx.runtime.internal.state;

import static io.loopx.runtime.internal.state.TestManifests.identity;
import static io.loopx.runtime.internal.state.TestManifests.snapshot;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The deterministic write sequence of the crash tests, shared by the parent test and its child
 * JVMs: both compute the same next change from the same state, so the parent knows the exact state
 * before and after every write a child makes.
 */
final class StateWorkload {
  /** The state size from which each write also removes the smallest entry (bounds the file). */
  static final int MAX_ENTRIES = 8;

  private StateWorkload() {}

  /**
   * Returns write number {@code index} of the sequence {@code prefix} on {@code state}: installs
   * {@code <prefix>-<index>} (or toggles it when present), removes the smallest other entry once
   * the state holds {@link #MAX_ENTRIES}, and on odd indexes toggles the largest remaining entry —
   * a multi-entry change, so atomicity of the whole write is observable.
   */
  static List<EntryChange> next(ActivationState state, String prefix, int index) {
    ExtensionId id = ExtensionId.of(prefix + "-" + index);
    List<EntryChange> changes = new ArrayList<>();
    Optional<ExtensionRecord> current = state.get(id);
    changes.add(
        current.isPresent()
            ? toggle(current.get())
            : new EntryChange(id, Optional.empty(), Optional.of(installed(id.value(), index))));
    List<ExtensionId> others = new ArrayList<>(state.extensions().keySet());
    others.remove(id);
    if (state.extensions().size() >= MAX_ENTRIES && !others.isEmpty()) {
      ExtensionId oldest = others.remove(0);
      changes.add(new EntryChange(oldest, state.get(oldest), Optional.empty()));
    }
    if (index % 2 == 1 && !others.isEmpty()) {
      changes.add(toggle(state.get(others.get(others.size() - 1)).orElseThrow()));
    }
    return List.copyOf(changes);
  }

  /** Returns {@code state} with {@code changes} applied, as {@link FileActivationStore} does. */
  static ActivationState apply(ActivationState state, List<EntryChange> changes) {
    ActivationState next = state;
    for (EntryChange change : changes) {
      next = next.with(change.id(), change.replacement());
    }
    return next;
  }

  /** Returns the state after write {@code index} of {@code prefix}. */
  static ActivationState step(ActivationState state, String prefix, int index) {
    return apply(state, next(state, prefix, index));
  }

  /** Returns the change that flips the enabled bit of {@code record}. */
  static EntryChange toggle(ExtensionRecord record) {
    return new EntryChange(
        record.id(),
        Optional.of(record),
        Optional.of(ExtensionRecords.withEnabled(record, !record.enabled())));
  }

  /**
   * Returns the record of a fresh install of {@code id} (version and proof vary with {@code n}).
   */
  static ExtensionRecord installed(String id, int n) {
    return ExtensionRecords.installed(
        snapshot(id, "1.0." + n), Optional.of(identity(n + 1)).filter(i -> n % 3 != 0));
  }

  /** Returns the change that installs {@code id} on a state where it is absent. */
  static EntryChange install(String id, int n) {
    return new EntryChange(ExtensionId.of(id), Optional.empty(), Optional.of(installed(id, n)));
  }
}
