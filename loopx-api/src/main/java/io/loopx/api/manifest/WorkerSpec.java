package io.loopx.api.manifest;

import io.loopx.api.InvalidValueException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The optional {@code [runtime.worker]} table: the provider can also run as a long-lived worker
 * that answers many requests over line frames (docs/contract/worker.md). The manifest fixes the
 * worker arguments and the pool bounds; a caller can never replace them.
 *
 * @param args arguments appended after {@code runtime.args} to start worker mode (at most {@value
 *     #MAX_ARGS}, non-empty strings without NUL)
 * @param maxInFlight requests at once per worker process, 1..{@value #MAX_IN_FLIGHT}
 * @param maxProcesses worker processes at once per extension revision, 1..{@value #MAX_PROCESSES}
 * @param idleSeconds seconds without a request before an idle worker is retired, 1..{@value
 *     #MAX_IDLE_SECONDS}
 * @param maxRequests requests a worker process answers before it is recycled, 1..{@value
 *     #MAX_REQUESTS}
 */
@API(status = API.Status.STABLE, since = "1.0")
public record WorkerSpec(
    List<String> args, int maxInFlight, int maxProcesses, int idleSeconds, int maxRequests) {
  /** The default {@code args}: {@code ["--loopx-worker"]}. */
  public static final List<String> DEFAULT_ARGS = List.of("--loopx-worker");

  /** The most {@code args}. */
  public static final int MAX_ARGS = 32;

  /** The default {@code max_in_flight}. */
  public static final int DEFAULT_MAX_IN_FLIGHT = 1;

  /** The largest {@code max_in_flight}. */
  public static final int MAX_IN_FLIGHT = 64;

  /** The default {@code max_processes}. */
  public static final int DEFAULT_MAX_PROCESSES = 1;

  /** The largest {@code max_processes}. */
  public static final int MAX_PROCESSES = 16;

  /** The default {@code idle_seconds}. */
  public static final int DEFAULT_IDLE_SECONDS = 300;

  /** The largest {@code idle_seconds}. */
  public static final int MAX_IDLE_SECONDS = 3600;

  /** The default {@code max_requests}. */
  public static final int DEFAULT_MAX_REQUESTS = 1000;

  /** The largest {@code max_requests}. */
  public static final int MAX_REQUESTS = 1_000_000;

  /** Validates and defensively copies. */
  public WorkerSpec {
    args = Checks.arguments("runtime.worker.args", args);
    if (args.size() > MAX_ARGS) {
      throw new InvalidValueException(
          "runtime.worker.args", Integer.toString(args.size()), "must hold at most 32 arguments");
    }
    bounded("runtime.worker.max_in_flight", maxInFlight, MAX_IN_FLIGHT);
    bounded("runtime.worker.max_processes", maxProcesses, MAX_PROCESSES);
    bounded("runtime.worker.idle_seconds", idleSeconds, MAX_IDLE_SECONDS);
    bounded("runtime.worker.max_requests", maxRequests, MAX_REQUESTS);
  }

  /** Returns the worker table with every default: what an empty {@code [runtime.worker]} means. */
  public static WorkerSpec defaults() {
    return new WorkerSpec(
        DEFAULT_ARGS,
        DEFAULT_MAX_IN_FLIGHT,
        DEFAULT_MAX_PROCESSES,
        DEFAULT_IDLE_SECONDS,
        DEFAULT_MAX_REQUESTS);
  }

  private static void bounded(String key, int value, int max) {
    if (value < 1 || value > max) {
      throw new InvalidValueException(key, Integer.toString(value), "must be 1.." + max);
    }
  }
}
