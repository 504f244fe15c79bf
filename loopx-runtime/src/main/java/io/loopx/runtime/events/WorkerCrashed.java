package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.run.RunFailure;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * A warm worker failed on its own: it never completed its handshake ({@code
 * worker_handshake_failed}, no {@link WorkerSpawned} came first), or it ended without LoopX asking
 * it to, its stdout closed or its stdin broken ({@code worker_terminated}, or {@code memory_limit}
 * when its memory limit's enforcement killed it); delivered once nothing of its process tree is
 * left.
 *
 * @param extensionId the extension
 * @param revision the revision it ran
 * @param pid the process id of the worker
 * @param exitCode its exit code when it exited by itself (empty when LoopX had to kill it; 128 plus
 *     the signal number when a signal ended it)
 * @param failure {@link RunFailure#WORKER_HANDSHAKE_FAILED} or {@link RunFailure#WORKER_TERMINATED}
 * @param requestsServed the responses it wrote
 * @param lifetime from its launch until nothing of it was left
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record WorkerCrashed(
    ExtensionId extensionId,
    Revision revision,
    long pid,
    OptionalInt exitCode,
    RunFailure failure,
    long requestsServed,
    Duration lifetime)
    implements LoopxEvent {

  /** Rejects nulls. */
  public WorkerCrashed {
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(lifetime, "lifetime");
  }
}
