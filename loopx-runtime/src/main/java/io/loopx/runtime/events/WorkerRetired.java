package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * LoopX ended a warm worker that had passed its handshake (a {@link WorkerSpawned} of the same pid
 * came first); delivered once nothing of its process tree is left.
 *
 * @param extensionId the extension
 * @param revision the revision it ran
 * @param pid the process id of the worker
 * @param reason why LoopX ended it
 * @param requestsServed the responses it wrote
 * @param lifetime from its launch until nothing of it was left
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record WorkerRetired(
    ExtensionId extensionId,
    Revision revision,
    long pid,
    WorkerRetireReason reason,
    long requestsServed,
    Duration lifetime)
    implements LoopxEvent {

  /** Rejects nulls. */
  public WorkerRetired {
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(lifetime, "lifetime");
  }
}
