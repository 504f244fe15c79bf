package io.loopx.runtime.internal.worker;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.events.WorkerEvent.Reason;
import io.loopx.runtime.run.RunFailure;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * What the owner of the workers (the facade's observer) hears of their lifecycle: one {@link Life}
 * per launched worker process, told at most once that it spawned and at most once how it ended.
 * Called on the thread that started or ended the worker, never under a pool's lock.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
@FunctionalInterface
public interface WorkerEvents {
  /** Hears nothing. */
  WorkerEvents NONE = (id, revision) -> Life.NONE;

  /** A worker process of ({@code id}, {@code revision}) is about to be launched. */
  Life starting(ExtensionId id, Revision revision);

  /** The life of one worker process, from its launch. */
  interface Life {
    /** Hears nothing. */
    Life NONE =
        new Life() {
          @Override
          public void spawned(long pid) {}

          @Override
          public void retired(long pid, Reason reason, long served) {}

          @Override
          public void crashed(long pid, OptionalInt exitCode, RunFailure failure, long served) {}
        };

    /** It passed its handshake. */
    void spawned(long pid);

    /** LoopX ended it (after {@link #spawned}); nothing of its tree is left. */
    void retired(long pid, Reason reason, long served);

    /**
     * It failed on its own ({@code worker_handshake_failed} before {@link #spawned}, else {@code
     * worker_terminated}); nothing of its tree is left.
     */
    void crashed(long pid, OptionalInt exitCode, RunFailure failure, long served);
  }
}
