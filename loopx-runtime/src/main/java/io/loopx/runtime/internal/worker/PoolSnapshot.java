package io.loopx.runtime.internal.worker;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.WorkerPoolSnapshot;
import java.util.Objects;

/**
 * The {@link WorkerPoolSnapshot} of one {@link WorkerPool}, its counts read together under the
 * pool's lock.
 *
 * @param extensionId the extension
 * @param revision the revision its workers run
 * @param processes the workers alive (usable) or starting
 * @param inFlight the requests holding a slot on a worker, not yet answered
 * @param queued the requests waiting for a slot
 * @param maxProcesses the manifest's {@code max_processes}
 * @param maxInFlight the manifest's {@code max_in_flight}
 * @param maxQueued the bound of the queue
 */
record PoolSnapshot(
    ExtensionId extensionId,
    Revision revision,
    int processes,
    int inFlight,
    int queued,
    int maxProcesses,
    int maxInFlight,
    int maxQueued)
    implements WorkerPoolSnapshot {
  PoolSnapshot {
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(revision, "revision");
  }
}
