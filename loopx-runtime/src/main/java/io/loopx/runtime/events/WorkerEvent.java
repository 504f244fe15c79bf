package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.runtime.run.RunFailure;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * A warm worker (docs/contract/worker.md) started, was ended by LoopX, or failed on its own; its
 * {@link #reason()} says which. A worker gets at most one {@link Reason#SPAWNED} (delivered on the
 * thread of the call that started it, before its first request is sent) and then exactly one end
 * (delivered once nothing of its process tree is left). Implemented by LoopX only; hosts do not
 * implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public non-sealed interface WorkerEvent extends LoopxEvent {

  /** Returns what happened to the worker. */
  Reason reason();

  /** Returns the extension. */
  ExtensionId extensionId();

  /** Returns the revision it runs (the pool's key with the runtime identity). */
  Revision revision();

  /** Returns the process id of the worker (the leader of its tree). */
  long pid();

  /** Returns the responses it wrote (0 when it {@link Reason#SPAWNED}). */
  long requestsServed();

  /**
   * Returns, for {@link Reason#SPAWNED}, the time from its launch to the accepted handshake; for an
   * end, its lifetime from its launch until nothing of it was left.
   */
  Duration duration();

  /**
   * Returns, for {@link Reason#CRASHED}, its exit code when it exited by itself (128 plus the
   * signal number when a signal ended it); empty when LoopX had to kill it and for other reasons.
   */
  OptionalInt exitCode();

  /**
   * Returns, for {@link Reason#CRASHED}, {@link RunFailure#WORKER_HANDSHAKE_FAILED} (no {@link
   * Reason#SPAWNED} came first), {@link RunFailure#WORKER_TERMINATED} or {@link
   * RunFailure#MEMORY_LIMIT}; empty for other reasons.
   */
  Optional<RunFailure> failure();

  /** What happened to a worker: it spawned, LoopX ended it (and why), or it crashed. */
  enum Reason {
    /** It started and passed its handshake. */
    SPAWNED,
    /** Ended by LoopX: it had no request for {@code idle_seconds}. */
    IDLE,
    /** Ended by LoopX: it served {@code max_requests} requests. */
    RECYCLED,
    /**
     * Ended by LoopX: the extension's revision or runtime changed (upgrade, rollback, disable,
     * doctor, uninstall, or a request that found another revision or runtime identity).
     */
    LIFECYCLE,
    /** Ended by LoopX: the {@code Loopx} was closed. */
    CLOSED,
    /** Ended by LoopX: a request on it reached its timeout; the whole tree was killed. */
    TIMEOUT,
    /** Ended by LoopX: a request's thread was interrupted; the whole tree was killed. */
    CANCELLED,
    /** Ended by LoopX: it wrote a line that is not a response frame; the tree was killed. */
    MALFORMED_FRAME,
    /** Ended by LoopX: it answered an id not in flight (a second response); the tree was killed. */
    UNKNOWN_RESPONSE,
    /** Ended by LoopX: it wrote a line over the frame limit; the whole tree was killed. */
    RESPONSE_TOO_LARGE,
    /** It failed on its own; {@link WorkerEvent#failure()} says how. */
    CRASHED;

    /** Returns the snake_case name, e.g. {@code malformed_frame}. */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
