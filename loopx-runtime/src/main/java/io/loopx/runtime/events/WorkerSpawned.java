package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A warm worker (docs/contract/worker.md) started and passed its handshake; delivered on the thread
 * of the dispatch or run that started it, before its first request is sent.
 *
 * @param extensionId the extension
 * @param revision the revision it runs (the pool's key with the runtime identity)
 * @param pid the process id of the worker (the leader of its tree)
 * @param startDuration from the launch to the accepted handshake
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record WorkerSpawned(
    ExtensionId extensionId, Revision revision, long pid, Duration startDuration)
    implements LoopxEvent {

  /** Rejects nulls. */
  public WorkerSpawned {
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(startDuration, "startDuration");
  }
}
