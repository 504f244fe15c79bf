package io.loopx.runtime.internal.worker;

import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.WorkerSpec;
import io.loopx.runtime.events.WorkerEvent.Reason;
import io.loopx.runtime.internal.process.LongLivedProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The workers of one {@link WorkerKey}: at most {@code max_processes} processes, each with at most
 * {@code max_in_flight} requests at once and recycled after {@code max_requests}; an idle one is
 * retired after {@code idle_seconds}. A retired pool admits nothing more and stops each worker once
 * its requests in flight have ended. At most {@link #queueBound} requests wait for a slot; a start
 * after a failure waits the {@link StartHealth#backoff() back-off} first. Thread-safe (guarded by
 * itself).
 */
final class WorkerPool {
  /** How long a stopping worker may take to exit after its stdin closed. */
  static final Duration STOP_PATIENCE = Duration.ofSeconds(1);

  private final WorkerKey key;
  private final WorkerSpec spec;
  private final ProtocolId protocol;
  private final Duration timeout;
  private final Supplier<LongLivedProcess.Start> launcher;
  private final Executor stopper;
  private final Set<Worker> registry;
  private final StartHealth health;
  private final WorkerEvents events;
  private final List<Worker> live = new ArrayList<>();
  private int starting;
  private int waiting;
  private boolean retired;
  private Reason retiredFor = Reason.LIFECYCLE;

  WorkerPool(
      WorkerKey key,
      WorkerSpec spec,
      ProtocolId protocol,
      Duration timeout,
      Supplier<LongLivedProcess.Start> launcher,
      Executor stopper,
      Set<Worker> registry,
      StartHealth health,
      WorkerEvents events) {
    this.key = key;
    this.spec = spec;
    this.protocol = protocol;
    this.timeout = timeout;
    this.launcher = launcher;
    this.stopper = stopper;
    this.registry = registry;
    this.health = health;
    this.events = events;
  }

  /** The most requests that wait for a slot at once: 4 x max_processes x max_in_flight. */
  static int queueBound(WorkerSpec spec) {
    return 4 * spec.maxProcesses() * spec.maxInFlight();
  }

  WorkerKey key() {
    return key;
  }

  /** What {@link #admit} gives. */
  sealed interface Admission {
    /** A slot on {@code worker}; give it back with {@link #release}. */
    record Admitted(Worker worker) implements Admission {}

    /** No worker could be started: the request gets {@code reply}. */
    record Refused(Reply reply, Optional<byte[]> stderr) implements Admission {}

    /** No slot came free before the deadline. */
    record Busy() implements Admission {}

    /** {@link #queueBound} requests already wait: refused at once. */
    record Full(int waiting) implements Admission {}

    /** The pool was retired meanwhile: ask the current one. */
    record Retired() implements Admission {}
  }

  /**
   * Admits one request before {@code deadline} ({@link System#nanoTime()}); {@code callerBound}
   * says that the caller's deadline, not the manifest timeout, set it. {@code beforeStart} runs
   * right before a worker is started for the request; what it throws propagates (nothing started).
   */
  Admission admit(long deadline, boolean callerBound, Runnable beforeStart) {
    boolean queued = false;
    synchronized (this) {
      try {
        while (true) {
          if (retired) {
            return new Admission.Retired();
          }
          live.removeIf(w -> !w.usable());
          for (Worker w : live) {
            if (w.admitted < spec.maxInFlight() && w.started < spec.maxRequests()) {
              w.admitted++;
              w.started++;
              return new Admission.Admitted(w);
            }
          }
          if (live.size() + starting < spec.maxProcesses()) {
            starting++;
            break;
          }
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            return new Admission.Busy();
          }
          if (!queued) {
            if (waiting >= queueBound(spec)) {
              return new Admission.Full(waiting);
            }
            waiting++;
            queued = true;
          }
          try {
            wait(Math.max(1, left / 1_000_000));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return cancelled();
          }
        }
      } finally {
        if (queued) {
          waiting--;
        }
      }
    }
    Worker.@Nullable Start start = null;
    try {
      Admission early = backOff(deadline);
      if (early != null) {
        return early;
      }
      beforeStart.run();
      long left = deadline - System.nanoTime();
      boolean cut = callerBound && left < timeout.toNanos();
      WorkerEvents.Life life = events.starting(key.id(), key.revision());
      start =
          Worker.start(
              launcher.get(),
              protocol,
              Duration.ofNanos(Math.max(0, left)),
              cut,
              life,
              this::notRetired);
    } finally {
      if (start == null) {
        synchronized (this) {
          starting--;
          notifyAll();
        }
      }
    }
    synchronized (this) {
      starting--;
      notifyAll();
      if (start instanceof Worker.Start.Refused refused) {
        if (refused.why() == Worker.Start.Why.RETIRED) {
          return new Admission.Retired();
        }
        if (refused.why() == Worker.Start.Why.FAILED) {
          health.failedStart();
        }
        return new Admission.Refused(refused.reply(), refused.stderr());
      }
      Worker worker = ((Worker.Start.Ready) start).worker();
      registry.add(worker);
      if (retired) {
        stopLater(worker, retiredFor);
        return new Admission.Retired();
      }
      live.add(worker);
      worker.admitted = 1;
      worker.started = 1;
      return new Admission.Admitted(worker);
    }
  }

  /**
   * Waits the back-off of the failures before this start; returns null to go on with the start,
   * else what the request gets (interrupted: {@code cancelled}; out of time: busy).
   */
  private @Nullable Admission backOff(long deadline) {
    Duration wait = health.backoff();
    if (wait.isZero()) {
      return null;
    }
    long until = Math.min(System.nanoTime() + wait.toNanos(), deadline);
    try {
      long left;
      while ((left = until - System.nanoTime()) > 0) {
        java.util.concurrent.TimeUnit.NANOSECONDS.sleep(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return cancelled();
    }
    if (deadline - System.nanoTime() <= 0) {
      return new Admission.Busy();
    }
    return null;
  }

  private static Admission cancelled() {
    return new Admission.Refused(
        new Reply.Failed(io.loopx.runtime.run.RunFailure.CANCELLED), Optional.empty());
  }

  private synchronized boolean notRetired() {
    return !retired;
  }

  /** Returns how many requests wait for a slot (for tests). */
  synchronized int waiting() {
    return waiting;
  }

  /** Gives back the slot of one request on {@code worker}. */
  synchronized void release(Worker worker) {
    worker.admitted--;
    worker.lastUsed = System.nanoTime();
    if (!worker.usable()) {
      live.remove(worker);
    } else if (worker.admitted == 0 && (retired || worker.started >= spec.maxRequests())) {
      live.remove(worker);
      stopLater(worker, retired ? retiredFor : Reason.RECYCLED);
    }
    notifyAll();
  }

  /** Stops the workers idle for longer than {@code idle_seconds}. */
  synchronized void reapIdle(long now) {
    long idle = Duration.ofSeconds(spec.idleSeconds()).toNanos();
    for (Iterator<Worker> it = live.iterator(); it.hasNext(); ) {
      Worker w = it.next();
      if (!w.usable()) {
        it.remove();
      } else if (w.admitted == 0 && now - w.lastUsed >= idle) {
        it.remove();
        stopLater(w, Reason.IDLE);
      }
    }
  }

  /**
   * Admits nothing more; stops every worker once its requests in flight have ended ({@code reason}:
   * why).
   */
  synchronized void retire(Reason reason) {
    if (!retired) {
      retiredFor = reason;
    }
    retired = true;
    for (Iterator<Worker> it = live.iterator(); it.hasNext(); ) {
      Worker w = it.next();
      if (w.admitted == 0 || !w.usable()) {
        it.remove();
        stopLater(w, retiredFor);
      }
    }
    notifyAll();
  }

  /** Kills every worker now (their requests in flight end {@code worker_terminated}). */
  void killAll() {
    List<Worker> all;
    synchronized (this) {
      retired = true;
      all = new ArrayList<>(live);
      live.clear();
      notifyAll();
    }
    all.forEach(w -> w.kill(Reason.CLOSED));
  }

  /** Returns whether no worker of this pool is running or starting. */
  synchronized boolean empty() {
    live.removeIf(w -> !w.usable());
    return live.isEmpty() && starting == 0;
  }

  /**
   * Returns what this pool holds now, its counts read together; empty once it was retired. A worker
   * counts while it is usable or starting; a request in flight holds a slot on a usable worker.
   */
  synchronized Optional<PoolSnapshot> snapshot() {
    if (retired) {
      return Optional.empty();
    }
    int processes = starting;
    int inFlight = 0;
    for (Worker w : live) {
      if (w.usable()) {
        processes++;
        inFlight += w.admitted;
      }
    }
    return Optional.of(
        new PoolSnapshot(
            key.id(),
            key.revision(),
            processes,
            inFlight,
            waiting,
            spec.maxProcesses(),
            spec.maxInFlight(),
            queueBound(spec)));
  }

  /** Returns the pids of the live workers (for tests). */
  synchronized List<Long> pids() {
    return live.stream().filter(Worker::usable).map(Worker::pid).toList();
  }

  private void stopLater(Worker worker, Reason reason) {
    stopper.execute(() -> worker.stop(STOP_PATIENCE, reason));
  }
}
