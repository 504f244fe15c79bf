package io.loopx.runtime;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import org.apiguardian.api.API;

/**
 * What one warm-worker pool (docs/contract/worker.md#pool) held at one moment ({@link
 * Loopx#workerPools()}), for gauges and health pages. The counts of one snapshot were read
 * together. Implemented by LoopX only; hosts do not implement it.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public interface WorkerPoolSnapshot {

  /** Returns the extension whose workers the pool holds. */
  ExtensionId extensionId();

  /** Returns the revision its workers run. */
  Revision revision();

  /** Returns the worker processes alive or starting (at most {@link #maxProcesses()}). */
  int processes();

  /**
   * Returns the requests that hold a slot on a live worker (their frame written, or about to be)
   * and are not yet answered.
   */
  int inFlight();

  /** Returns the requests waiting for a slot or a worker's start (at most {@link #maxQueued()}). */
  int queued();

  /** Returns the manifest's {@code max_processes}. */
  int maxProcesses();

  /** Returns the manifest's {@code max_in_flight}. */
  int maxInFlight();

  /** Returns the bound of the queue: 4 × {@code max_processes} × {@code max_in_flight}. */
  int maxQueued();
}
