package io.loopx.runtime.internal.worker;

import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ExtensionRecord;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The committed state as the workers' watch sees it (docs/contract/worker.md#lifecycle-changes):
 * read through the store's own read (one {@code stat} for an unchanged state file, one generation
 * query for PostgreSQL), told only when it changed, and whether it still backs a pool's key. Used
 * by the reaper thread alone.
 */
final class StateWatch {
  private volatile @Nullable Supplier<ActivationState> source;
  private @Nullable ActivationState last;

  /** Reads the state through {@code state} from now on. */
  void source(Supplier<ActivationState> state) {
    this.source = state;
  }

  /** Returns the state when it changed since the last call; empty when not, or the read failed. */
  Optional<ActivationState> changed() {
    Supplier<ActivationState> read = source;
    if (read == null) {
      return Optional.empty();
    }
    ActivationState state;
    try {
      state = read.get();
    } catch (RuntimeException e) {
      return Optional.empty(); // retires nothing: the check before each frame refuses meanwhile
    }
    if (state == last) {
      return Optional.empty();
    }
    last = state;
    return Optional.of(state);
  }

  /**
   * Whether {@code state} backs {@code key}: its extension installed and enabled, its revision
   * active and its identity proven.
   */
  static boolean backs(ActivationState state, WorkerKey key) {
    return state
        .get(key.id())
        .filter(ExtensionRecord::enabled)
        .filter(r -> r.activeRevision().equals(key.revision()))
        .filter(r -> r.proofCovers(key.identity()))
        .isPresent();
  }
}
