package io.loopx.runtime.internal.worker;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.TraceContext;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.WorkerSpec;
import io.loopx.runtime.WorkerPoolSnapshot;
import io.loopx.runtime.events.WorkerEvent.Reason;
import io.loopx.runtime.internal.process.CallDeadline;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.state.ActivationState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The warm workers of one {@code Loopx} (docs/contract/worker.md): one {@link WorkerPool} per
 * (extension, revision, runtime identity). Every request passes the caller's execute-time check
 * right before its frame is queued, and every worker start right before it is started; both under
 * the read side of one lock whose write side holds each lifecycle commit ({@link #ordered}) and the
 * retires it causes. So a request whose frame is written after a commit returned saw that commit,
 * and a pool whose key the check refuses is retired at once and never starts a worker. {@link
 * #close} retires everything and returns when no worker is left. Thread-safe.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class Workers implements AutoCloseable {
  /** How long {@link #close} lets requests in flight finish before it kills their workers. */
  public static final Duration CLOSE_DRAIN = Duration.ofSeconds(5);

  /** How often the state is read while workers live, to retire those changed elsewhere. */
  public static final Duration WATCH_INTERVAL = Duration.ofSeconds(1);

  private final OsProcessLauncher launcher;
  private final boolean keepStderr;
  private final WorkerEvents events;
  private final Map<WorkerKey, WorkerPool> pools = new ConcurrentHashMap<>();
  private final Map<ExtensionId, StartHealth> health = new ConcurrentHashMap<>();
  private final Set<Worker> started = ConcurrentHashMap.newKeySet();
  private final ExecutorService stopper =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "loopx-worker-stop");
            t.setDaemon(true);
            return t;
          });
  private final ScheduledExecutorService reaper =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "loopx-worker-reaper");
            t.setDaemon(true);
            return t;
          });
  private final ReadWriteLock order = new ReentrantReadWriteLock();
  private final StateWatch watch = new StateWatch();
  private volatile boolean closed;
  private volatile boolean reaping;

  /**
   * Creates the workers of a facade whose providers {@code launcher} starts; {@code events} hears
   * every worker's spawn and end.
   */
  public Workers(OsProcessLauncher launcher, boolean keepStderr, WorkerEvents events) {
    this.launcher = launcher;
    this.keepStderr = keepStderr;
    this.events = events;
  }

  /**
   * What one worker request did.
   *
   * @param outcome the classified outcome (exit code always absent: a worker does not exit per
   *     request)
   * @param executableMismatch whether the worker executed other bytes than the hashed file (the
   *     caller revokes the proof)
   */
  public record Outcome(ProviderOutcome outcome, boolean executableMismatch) {}

  /**
   * Runs {@code request} (the bound request, as a one-shot provider would read it on stdin) on a
   * worker of (id, revision, identity), started from what {@code launch} returns (the one-shot
   * launch with the worker args appended; asked for only when a worker starts) if none is free;
   * empty once this is closed (the caller runs one-shot). {@code check} is the execute-time check
   * of the call (it throws when the extension is no longer enabled, the revision no longer active
   * or the identity no longer proven): it runs right before a worker is started for the request and
   * right before the request's frame is queued, ordered with lifecycle commits; when it throws, the
   * pool of this key is retired and the exception propagates. The request ends by the smaller of
   * the manifest timeout and the caller's {@code callDeadline}.
   *
   * @throws LoopxException what {@code check} throws; {@code PROVIDER_UNAVAILABLE} after {@value
   *     StartHealth#UNAVAILABLE_AFTER} failed starts in a row (until a doctor reports ready);
   *     {@code PROVIDER_BUSY} when the queue is full or no slot comes free in time
   */
  public Optional<Outcome> call(
      ExtensionId id,
      Revision revision,
      String identity,
      RuntimeSpec spec,
      Supplier<LaunchRequest> launch,
      byte[] request,
      CallDeadline callDeadline,
      Runnable check) {
    return call(
        id, revision, identity, spec, launch, request, Optional::empty, callDeadline, check);
  }

  /**
   * Runs {@code request} as {@link #call(ExtensionId, Revision, String, RuntimeSpec, Supplier,
   * byte[], CallDeadline, Runnable)} does; when the worker it gets announced {@code trace_context},
   * {@code trace} (which never throws) is read on this thread right before the request's frame is
   * queued and its context goes into the frame (docs/contract/worker.md#trace-context).
   *
   * @throws LoopxException as above
   */
  public Optional<Outcome> call(
      ExtensionId id,
      Revision revision,
      String identity,
      RuntimeSpec spec,
      Supplier<LaunchRequest> launch,
      byte[] request,
      Supplier<Optional<TraceContext>> trace,
      CallDeadline callDeadline,
      Runnable check) {
    WorkerSpec workerSpec = spec.worker().orElseThrow();
    WorkerKey key = new WorkerKey(id, revision, identity);
    Duration manifestTimeout = Duration.ofSeconds(spec.timeoutSeconds());
    Duration timeout = callDeadline.cap(manifestTimeout);
    boolean callerBound = timeout.compareTo(manifestTimeout) < 0;
    long deadline = System.nanoTime() + timeout.toNanos();
    if (timeout.isZero()) {
      // The caller's deadline is already past: nothing is started or sent (a warm worker stays).
      return Optional.of(
          new Outcome(ReplyOutcomes.failed(RunFailure.TIMEOUT, null, keepStderr), false));
    }
    Runnable gate = () -> whileNoCommit(() -> checked(key, check));
    StartHealth starts = health.computeIfAbsent(id, k -> new StartHealth());
    while (true) {
      if (closed) {
        return Optional.empty();
      }
      if (starts.unavailable()) {
        throw new LoopxException(
            ErrorKind.PROVIDER_UNAVAILABLE,
            "extension `"
                + id
                + "` is unavailable: "
                + starts.failedStarts()
                + " worker starts failed in a row; run `loopx extension doctor "
                + id
                + " --execute`");
      }
      retireOthers(key);
      WorkerPool pool =
          pools.computeIfAbsent(
              key,
              k ->
                  new WorkerPool(
                      k,
                      workerSpec,
                      spec.protocol(),
                      manifestTimeout,
                      () -> launcher.startLongLived(launch.get()),
                      stopper,
                      started,
                      starts,
                      events));
      startReaper();
      WorkerPool.Admission admission = pool.admit(deadline, callerBound, gate);
      if (admission instanceof WorkerPool.Admission.Retired) {
        pools.remove(key, pool);
        // Retired by a lifecycle change while this request waited: a pool of the same key is made
        // again only when the check still passes (a doctor's retire, not a disable or upgrade).
        gate.run();
        continue;
      }
      if (admission instanceof WorkerPool.Admission.Busy) {
        throw busy(id, workerSpec, "has no free worker within " + timeout.toMillis() + " ms");
      }
      if (admission instanceof WorkerPool.Admission.Full full) {
        throw busy(
            id, workerSpec, "already has " + full.waiting() + " requests waiting for a worker");
      }
      if (admission instanceof WorkerPool.Admission.Refused refused) {
        return Optional.of(
            ReplyOutcomes.of(refused.reply(), refused.stderr().orElse(new byte[0]), keepStderr));
      }
      Worker worker = ((WorkerPool.Admission.Admitted) admission).worker();
      try {
        // Read on the calling thread, outside the commit order (the source is the host's code).
        Optional<TraceContext> context = worker.tracesContext() ? trace.get() : Optional.empty();
        Worker.Sent sent =
            whileNoCommit(
                () -> {
                  checked(key, check);
                  return worker.send(request, context);
                });
        Reply reply =
            worker.await(sent, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        if (reply instanceof Reply.Answered) {
          starts.answered();
        } else if (worker.reportBreak()) {
          if (worker.answeredAny()) {
            starts.crashed();
          } else {
            starts.failedStart();
          }
        }
        return Optional.of(ReplyOutcomes.of(reply, worker.stderrTail(), keepStderr));
      } finally {
        pool.release(worker);
      }
    }
  }

  private static LoopxException busy(ExtensionId id, WorkerSpec spec, String state) {
    return new LoopxException(
        ErrorKind.PROVIDER_BUSY,
        "extension `"
            + id
            + "` "
            + state
            + " (max_processes "
            + spec.maxProcesses()
            + ", max_in_flight "
            + spec.maxInFlight()
            + ")");
  }

  /**
   * Runs {@code commit} (a lifecycle commit and the retires it causes) while no request frame is
   * queued and no worker start is decided: a request checked after it returns sees its effect.
   */
  public <T> T ordered(Supplier<T> commit) {
    order.writeLock().lock();
    try {
      return commit.get();
    } finally {
      order.writeLock().unlock();
    }
  }

  /** Runs {@code step} while no {@link #ordered} commit runs. */
  private <T> T whileNoCommit(Supplier<T> step) {
    order.readLock().lock();
    try {
      return step.get();
    } finally {
      order.readLock().unlock();
    }
  }

  /** Runs {@code check}; when it throws, retires the pool of {@code key}: it is no longer valid. */
  private @Nullable Void checked(WorkerKey key, Runnable check) {
    try {
      check.run();
    } catch (RuntimeException e) {
      WorkerPool stale = pools.remove(key);
      if (stale != null) {
        stale.retire(Reason.LIFECYCLE);
      }
      throw e;
    }
    return null;
  }

  /** Retires every pool of {@code id} (a lifecycle change: disable, upgrade, rollback, doctor). */
  public void retire(ExtensionId id) {
    for (WorkerPool pool : new ArrayList<>(pools.values())) {
      if (pool.key().id().equals(id)) {
        pools.remove(pool.key(), pool);
        pool.retire(Reason.LIFECYCLE);
      }
    }
  }

  /** Retires every pool of {@code id} and forgets its failed starts: it was uninstalled. */
  public void forget(ExtensionId id) {
    retire(id);
    health.remove(id);
  }

  /** Returns whether failed starts of {@code id} are counted (for tests). */
  boolean countsStarts(ExtensionId id) {
    return health.containsKey(id);
  }

  /**
   * Forgets the failed starts of {@code id}: a doctor of it reported ready (it also ends {@code
   * provider_unavailable}).
   */
  public void ready(ExtensionId id) {
    StartHealth starts = health.get(id);
    if (starts != null) {
      starts.clear();
    }
  }

  /**
   * What the doctor's worker check found.
   *
   * @param failure empty when the worker wrote a valid handshake in time; else {@code
   *     execution_failed}, {@code worker_handshake_failed} or {@code entrypoint_changed_during_run}
   * @param stderr the worker's stderr tail (empty when it did not run)
   * @param handshakeLine the preview of the worker's first line when it was not a valid handshake
   *     (empty, like the stderr tail, when the host turned provider diagnostics off)
   */
  public record HandshakeCheck(
      Optional<RunFailure> failure, byte[] stderr, Optional<String> handshakeLine) {}

  /**
   * Starts one worker from {@code launch} exactly like a pool would, waits up to {@code timeout}
   * for its handshake, then stops it (stdin closed, then its tree killed) and returns what it
   * found. Not pooled; independent of {@link #close}.
   */
  public HandshakeCheck checkHandshake(LaunchRequest launch, RuntimeSpec spec, Duration timeout) {
    Worker.Start start =
        Worker.start(
            launcher.startLongLived(launch),
            spec.protocol(),
            timeout,
            false,
            WorkerEvents.Life.NONE, // a doctor's check, not a pool's worker: no events
            () -> true);
    if (start instanceof Worker.Start.Ready ready) {
      byte[] stderr = ready.worker().stderrTail();
      ready.worker().stop(WorkerPool.STOP_PATIENCE, Reason.LIFECYCLE);
      return new HandshakeCheck(
          Optional.empty(), keepStderr ? stderr : new byte[0], Optional.empty());
    }
    Worker.Start.Refused refused = (Worker.Start.Refused) start;
    RunFailure failure =
        refused.reply() instanceof Reply.Failed failed
            ? failed.failure()
            : RunFailure.ENTRYPOINT_CHANGED_DURING_RUN;
    return new HandshakeCheck(
        Optional.of(failure),
        keepStderr ? refused.stderr().orElse(new byte[0]) : new byte[0],
        keepStderr ? refused.handshakeLine() : Optional.empty());
  }

  /** Returns how many requests for {@code id} wait for a worker slot (for tests). */
  public int waiting(ExtensionId id) {
    int waiting = 0;
    for (WorkerPool pool : pools.values()) {
      if (pool.key().id().equals(id)) {
        waiting += pool.waiting();
      }
    }
    return waiting;
  }

  /**
   * Returns a snapshot of every live pool (docs/observing.md#worker-pools), each read under its own
   * lock; empty once this is closed.
   */
  public List<WorkerPoolSnapshot> snapshots() {
    if (closed) {
      return List.of();
    }
    List<WorkerPoolSnapshot> snapshots = new ArrayList<>();
    for (WorkerPool pool : pools.values()) {
      pool.snapshot().ifPresent(snapshots::add);
    }
    return List.copyOf(snapshots);
  }

  /** Returns the pids of the live workers of {@code id} (for tests and diagnostics). */
  public List<Long> pids(ExtensionId id) {
    List<Long> pids = new ArrayList<>();
    for (WorkerPool pool : pools.values()) {
      if (pool.key().id().equals(id)) {
        pids.addAll(pool.pids());
      }
    }
    return pids;
  }

  /**
   * Retires every worker: no new request is admitted, requests in flight get up to {@link
   * #CLOSE_DRAIN} to finish, then every worker is stopped (stdin closed, then its tree killed).
   * Returns when nothing of any worker is left.
   */
  @Override
  public void close() {
    closed = true;
    List<WorkerPool> all = new ArrayList<>(pools.values());
    pools.clear();
    all.forEach(p -> p.retire(Reason.CLOSED));
    long deadline = System.nanoTime() + CLOSE_DRAIN.toNanos();
    for (WorkerPool pool : all) {
      while (!pool.empty() && System.nanoTime() < deadline) {
        synchronized (pool) {
          try {
            pool.wait(10);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            break;
          }
        }
      }
      pool.killAll();
    }
    for (Worker w : started) {
      w.kill(Reason.CLOSED);
    }
    started.clear();
    reaper.shutdownNow();
    stopper.shutdown();
  }

  private void retireOthers(WorkerKey key) {
    for (WorkerPool pool : pools.values()) {
      WorkerKey other = pool.key();
      if (other.id().equals(key.id()) && !other.equals(key)) {
        pools.remove(other, pool);
        pool.retire(Reason.LIFECYCLE);
      }
    }
  }

  private void startReaper() {
    if (reaping) {
      return;
    }
    synchronized (this) {
      if (reaping || closed) {
        return;
      }
      reaping = true;
      reaper.scheduleWithFixedDelay(this::reap, 250, 250, TimeUnit.MILLISECONDS);
      long watch = WATCH_INTERVAL.toMillis();
      reaper.scheduleWithFixedDelay(this::watch, watch, watch, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Watches the committed state through {@code state} ({@link StateWatch}): while a worker lives,
   * the reaper thread reads it every {@link #WATCH_INTERVAL} and retires the pools it no longer
   * backs (a change committed by another process or host).
   */
  public void watch(Supplier<ActivationState> state) {
    watch.source(state);
  }

  private void watch() {
    // Pools outlive their workers (idle_seconds): read only while a worker runs or starts, so a
    // host whose workers all went idle costs no query (PostgreSQL) once a second from then on.
    if (!pools.values().stream().allMatch(WorkerPool::empty)) {
      watch.changed().ifPresent(this::reconcile);
    }
  }

  /**
   * Retires every pool whose key {@code state} no longer backs: its extension uninstalled or
   * disabled, another revision active, or the identity no longer proven.
   */
  void reconcile(ActivationState state) {
    for (WorkerPool pool : new ArrayList<>(pools.values())) {
      if (!StateWatch.backs(state, pool.key()) && pools.remove(pool.key(), pool)) {
        pool.retire(Reason.LIFECYCLE);
      }
    }
  }

  private void reap() {
    long now = System.nanoTime();
    for (WorkerPool pool : pools.values()) {
      pool.reapIdle(now);
    }
    started.removeIf(Worker::finished);
  }
}
