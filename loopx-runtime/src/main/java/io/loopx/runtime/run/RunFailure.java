package io.loopx.runtime.run;

import java.util.Locale;
import org.apiguardian.api.API;

/** The {@code failure_kind} of a {@link RunReceipt}, when the run failed for a named reason. */
@API(status = API.Status.STABLE, since = "1.0")
public enum RunFailure {
  /** The provider process could not be started. */
  EXECUTION_FAILED,
  /** The manifest's timeout elapsed; LoopX terminated the provider's process group. */
  TIMEOUT,
  /** Stdout exceeded 1,000,000 bytes; LoopX terminated the provider's process group. */
  RESPONSE_TOO_LARGE,
  /** Stderr exceeded 1,000,000 bytes; LoopX terminated the provider's process group. */
  STDERR_TOO_LARGE,
  /** Stdout was not exactly one strict JSON object (whitespace around it is allowed). */
  RESPONSE_NOT_JSON_OBJECT,
  /**
   * The launcher (or an interpreter, {@code java} or the code source) changed while the provider
   * ran: its inode, size, modification or change time, or its identity, differ from those taken
   * with the hash. The provider's output was discarded and the proof of the identity revoked
   * (docs/threat-model.md, P2).
   */
  ENTRYPOINT_CHANGED_DURING_RUN,
  /**
   * The warm worker that held the request was retired while it was in flight (another request on it
   * timed out or broke the frame protocol, it exited or was killed, or the host closed); LoopX
   * killed its whole tree (docs/contract/worker.md).
   */
  WORKER_TERMINATED,
  /**
   * A warm worker did not write its handshake line within the manifest timeout, or wrote another
   * line; LoopX killed its whole tree (docs/contract/worker.md).
   */
  WORKER_HANDSHAKE_FAILED,
  /**
   * The calling thread was interrupted while the request was in flight on a warm worker; LoopX
   * retired the worker and killed its tree (docs/contract/worker.md).
   */
  CANCELLED,
  /**
   * The memory limit's enforcement (the kernel's OOM killer of the call's or worker's memory
   * cgroup) killed a process of the provider; LoopX terminated the rest. On a warm worker every
   * request in flight ends so and the worker is retired (docs/contract/run.md#memory-limit).
   */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  MEMORY_LIMIT;

  // Computed once: receipts, events and error packets ask for it on every call.
  private final String wireName = name().toLowerCase(Locale.ROOT);

  /** Returns the snake_case word used on the wire, e.g. {@code response_too_large}. */
  public String wireName() {
    return wireName;
  }
}
