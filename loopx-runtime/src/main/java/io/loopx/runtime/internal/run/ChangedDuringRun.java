package io.loopx.runtime.internal.run;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.internal.outcome.ProviderOutcomeRecord;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunStatus;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * Fail closed after a run whose runtime changed while it ran (docs/threat-model.md, P2): the
 * provider's output is discarded ({@code provider_failed}, {@code entrypoint_changed_during_run})
 * and the doctor proof of the identity that was launched is revoked in the state, so the next call
 * is {@code doctor_stale} until the doctor proves the runtime again.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ChangedDuringRun {
  private static final int ATTEMPTS = 5;

  private ChangedDuringRun() {}

  /** The outcome of such a run: no exit code, no provider result. */
  public static ProviderOutcomeRecord outcome() {
    return new ProviderOutcomeRecord(
        RunStatus.PROVIDER_FAILED,
        Optional.of(RunFailure.ENTRYPOINT_CHANGED_DURING_RUN),
        OptionalInt.empty(),
        Optional.empty());
  }

  /**
   * Removes {@code identity} from the proof of extension {@code id} through the store's update
   * path; nothing is written when the extension is gone or its proof no longer covers it. A
   * concurrent change is retried.
   *
   * @throws LoopxException when the state cannot be updated (the call fails; the output is
   *     discarded either way)
   */
  public static void revoke(
      ActivationStore store, ExtensionId id, String identity, String operation) {
    for (int attempt = 1; ; attempt++) {
      ExtensionRecord current = store.read().extensions().get(id);
      if (current == null || !current.proofCovers(identity)) {
        return;
      }
      try {
        store.update(
            operation,
            List.of(
                new EntryChange(
                    id,
                    Optional.of(current),
                    Optional.of(ExtensionRecords.withRevoked(current, identity)))));
        return;
      } catch (LoopxException e) {
        if (e.kind() != ErrorKind.STATE_CONFLICT || attempt >= ATTEMPTS) {
          throw e;
        }
      }
    }
  }
}
