package io.loopx.store.postgresql;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Moves an existing activation state (a {@code state.json}) into another store, typically a {@link
 * PostgresActivationStore}: a preview by default, all entries or none on execute.
 *
 * <p>An entry absent from the target is added; one the target already holds identically is left as
 * it is; one the target holds differently refuses the whole import ({@code STATE_CONFLICT}), in
 * preview and execute alike, and nothing is written. The write is one compare-and-set update of the
 * target (every added entry expected absent), so an entry another host adds meanwhile is a conflict
 * too.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class StateImport {
  private StateImport() {}

  /**
   * What an import does or did.
   *
   * @param added the entries the import adds (or added)
   * @param identical the entries the target already holds identically (left as they are)
   * @param executed whether the entries were written
   */
  public record Plan(List<ExtensionId> added, List<ExtensionId> identical, boolean executed) {
    /** Copies the lists. */
    public Plan {
      added = List.copyOf(added);
      identical = List.copyOf(identical);
    }
  }

  /**
   * Reads the state file {@code stateFile} (with the file store's checks) and imports it into
   * {@code target}.
   *
   * @throws LoopxException as {@link #from(ActivationState, ActivationStore, Mode)}, and {@code
   *     STATE_UNREADABLE} when the file is invalid
   */
  public static Plan fromStateFile(Path stateFile, ActivationStore target, Mode mode) {
    ActivationState source;
    try (Loopx files = Loopx.builder().stateFile(stateFile).build()) {
      source = files.state(); // the file store's read: private paths, size bound, strict format
    }
    return from(source, target, mode);
  }

  /**
   * Imports {@code source} into {@code target}: {@link Mode#PREVIEW} only plans, {@link
   * Mode#EXECUTE} writes.
   *
   * @throws LoopxException {@code STATE_CONFLICT} when the target holds a differing entry (the
   *     message names them), or the target's errors
   */
  public static Plan from(ActivationState source, ActivationStore target, Mode mode) {
    ActivationState current = target.read();
    List<ExtensionId> added = new ArrayList<>();
    List<ExtensionId> identical = new ArrayList<>();
    List<ExtensionId> differing = new ArrayList<>();
    List<EntryChange> changes = new ArrayList<>();
    for (ExtensionRecord r : source.extensions().values()) {
      Optional<ExtensionRecord> there = current.get(r.id());
      if (there.isEmpty()) {
        added.add(r.id());
        changes.add(new EntryChange(r.id(), Optional.empty(), Optional.of(r)));
      } else if (there.get().equals(r)) {
        identical.add(r.id());
      } else {
        differing.add(r.id());
      }
    }
    if (!differing.isEmpty()) {
      throw new LoopxException(
          ErrorKind.STATE_CONFLICT,
          "import refused: the target holds other entries for "
              + differing.stream().map(id -> "`" + id + "`").toList()
              + "; nothing was written");
    }
    if (mode == Mode.EXECUTE && !changes.isEmpty()) {
      target.update("import", changes);
      return new Plan(added, identical, true);
    }
    return new Plan(added, identical, false);
  }
}
