package io.loopx.runtime.internal.worker;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import java.util.Objects;

/**
 * What a worker is bound to: a request runs on a worker only when all three are the ones its
 * execute-time check saw.
 *
 * @param id the extension
 * @param revision its active revision
 * @param identity the runtime identity the doctor proof covers
 */
record WorkerKey(ExtensionId id, Revision revision, String identity) {
  WorkerKey {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(identity, "identity");
  }
}
