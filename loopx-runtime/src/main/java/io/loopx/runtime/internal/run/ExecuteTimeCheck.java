package io.loopx.runtime.internal.run;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.internal.Problems;
import io.loopx.runtime.internal.identity.RuntimeResolution;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.ExtensionRecord;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * The execute-time check of a provider call (docs/threat-model.md, P3): read the entry once more
 * ({@link ActivationStore#entry}), right before the launch, and require together that the extension
 * is still installed and enabled, that its active revision is the one the call was prepared for,
 * and that its doctor proof still covers the runtime identity about to be launched. A disable,
 * upgrade or rollback that commits before this read always wins.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ExecuteTimeCheck {
  private ExecuteTimeCheck() {}

  /**
   * Re-reads {@code id} in {@code store} and checks it against what the call was prepared for.
   *
   * @param operation the call's name in the conflict message ({@code dispatch} or {@code run})
   * @throws LoopxException {@code NOT_INSTALLED}, {@code EXTENSION_DISABLED}, {@code
   *     STATE_CONFLICT} (another revision is active) or {@code DOCTOR_STALE} (the proof no longer
   *     covers {@code runtime})
   */
  public static void require(
      ActivationStore store,
      ExtensionId id,
      Revision revision,
      RuntimeResolution.Resolved runtime,
      String operation) {
    ExtensionRecord now =
        ExtensionRecords.requireEnabled(
            store
                .entry(id)
                .orElseThrow(
                    () ->
                        new LoopxException(
                            ErrorKind.NOT_INSTALLED, "extension `" + id + "` is not installed")));
    requireRevision(now, revision, operation);
    if (!now.proofCovers(runtime.identity().value())) {
      throw Problems.doctorStale(id);
    }
  }

  /**
   * Requires that {@code record}'s active revision is {@code revision}.
   *
   * @throws RevisionMoved {@code STATE_CONFLICT}
   */
  public static void requireRevision(ExtensionRecord record, Revision revision, String operation) {
    if (!record.activeRevision().equals(revision)) {
      throw new RevisionMoved(operation);
    }
  }

  /**
   * Another revision became active after the call was resolved (an upgrade or rollback committed):
   * the call is resolved again, a bounded number of times, before this reaches the caller.
   */
  public static final class RevisionMoved extends LoopxException {
    private static final long serialVersionUID = 1L;

    /** The most times a call is resolved again before {@code state_conflict} reaches its caller. */
    public static final int RESOLVE_AGAIN = 2;

    RevisionMoved(String operation) {
      super(ErrorKind.STATE_CONFLICT, "extension state changed during " + operation + "; retry");
    }

    /**
     * Returns what {@code call} returns, calling it again (at most {@link #RESOLVE_AGAIN} more
     * times) while it throws {@code RevisionMoved}: the one retry rule of run and dispatch.
     */
    public static <T> T retried(Supplier<T> call) {
      for (int again = 0; ; again++) {
        try {
          return call.get();
        } catch (RevisionMoved moved) {
          if (again >= RESOLVE_AGAIN) {
            throw moved;
          }
        }
      }
    }
  }
}
