package io.loopx.runtime.events;

import java.util.Locale;
import org.apiguardian.api.API;

/** Why LoopX ended a warm worker ({@link WorkerRetired}). */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public enum WorkerRetireReason {
  /** It had no request for {@code idle_seconds}. */
  IDLE,
  /** It served {@code max_requests} requests. */
  RECYCLED,
  /**
   * The extension's revision or runtime changed (upgrade, rollback, disable, doctor, uninstall, or
   * a request that found another revision or runtime identity).
   */
  LIFECYCLE,
  /** The {@code Loopx} was closed. */
  CLOSED,
  /** A request on it reached its timeout: the whole tree was killed. */
  TIMEOUT,
  /** The thread waiting for a request on it was interrupted: the whole tree was killed. */
  CANCELLED,
  /** It wrote a line that is not a response frame: the whole tree was killed. */
  MALFORMED_FRAME,
  /**
   * It answered an id that is not in flight (a second response to one request among them): the
   * whole tree was killed.
   */
  UNKNOWN_RESPONSE,
  /** It wrote a line over the frame limit: the whole tree was killed. */
  RESPONSE_TOO_LARGE;

  /** Returns the snake_case name, e.g. {@code malformed_frame}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
