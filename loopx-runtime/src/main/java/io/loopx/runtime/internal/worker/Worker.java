package io.loopx.runtime.internal.worker;

import io.loopx.api.ProtocolId;
import io.loopx.api.TraceContext;
import io.loopx.api.internal.WorkerWire;
import io.loopx.runtime.events.WorkerEvent.Reason;
import io.loopx.runtime.internal.process.LongLivedProcess;
import io.loopx.runtime.internal.process.OutputPreview;
import io.loopx.runtime.run.RunFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One worker process: the handshake, the requests in flight matched to the response frames its
 * {@link WorkerStreams} read, and the rules of docs/contract/worker.md for everything else: a
 * malformed frame, a response to an unknown id (a second response to one request among them) or a
 * line over {@link WorkerFrames#LINE_LIMIT} kill the whole tree, and every request still in flight
 * ends {@code worker_terminated}. Its {@link WorkerEvents.Life} hears once that it spawned and once
 * how it ended (the first of the ways it ends wins). Thread-safe; the pool's counters ({@link
 * #admitted}, {@link #started}, {@link #lastUsed}) are guarded by the pool.
 */
final class Worker {
  /** How long a worker whose stdout ended may take to exit before its exit code is given up. */
  private static final Duration EXIT_PATIENCE = Duration.ofSeconds(2);

  private final LongLivedProcess process;
  private final Map<String, CompletableFuture<Reply>> inFlight = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong();
  private final WorkerStreams streams;
  private final CompletableFuture<Boolean> handshake = new CompletableFuture<>();
  private final ProtocolId protocol;
  private final AtomicBoolean reported = new AtomicBoolean();
  private volatile boolean dead;
  private volatile boolean broke;
  private volatile @Nullable String handshakeLine; // the start of a line that was not one
  private volatile boolean tracesContext; // the handshake announced trace_context
  private final WorkerEvents.Life life;
  private final AtomicBoolean ended = new AtomicBoolean();
  private final AtomicLong served = new AtomicLong();
  private final Object reports = new Object();
  private boolean announced; // guarded by reports
  private boolean unwanted; // guarded by reports: ended before its spawn was announced, unheard

  // Guarded by the pool.
  int admitted;
  int started;
  long lastUsed = System.nanoTime();

  private Worker(LongLivedProcess process, ProtocolId protocol, WorkerEvents.Life life) {
    this.process = process;
    this.protocol = protocol;
    this.life = life;
    this.streams = new WorkerStreams(process, this::accept, this::tooLong, this::endedOnItsOwn);
  }

  /** How a start ended: a ready worker, or the reply every request waiting for it gets. */
  sealed interface Start {
    record Ready(Worker worker) implements Start {}

    /**
     * The worker did not become ready.
     *
     * @param reply what the request that started it gets
     * @param stderr the worker's stderr tail, when it ran
     * @param why the kind of failure, for the pool's count of failed starts
     * @param handshakeLine the preview ({@link OutputPreview}) of the first line when it was not a
     *     valid handshake
     */
    record Refused(Reply reply, Optional<byte[]> stderr, Why why, Optional<String> handshakeLine)
        implements Start {}

    /** Why a start was refused. */
    enum Why {
      /** Not started, or the handshake was wrong, or missing when its time was up. */
      FAILED,
      /** The handshake was still missing when the caller's time was up (not the worker's fault). */
      OUT_OF_TIME,
      /** The starting thread was interrupted. */
      CANCELLED,
      /** The process executed other bytes than the hashed file. */
      MISMATCH,
      /** Its pool was retired while it started (a lifecycle change): it was killed unheard. */
      RETIRED
    }
  }

  /**
   * Starts the process and waits for its handshake within {@code timeout}; {@code callerBound} says
   * that {@code timeout} is shorter than the manifest's because of the caller's deadline (a
   * handshake missing at its end is then {@code timeout}, not a failed start); {@code life} hears
   * of the worker from then on, unless {@code wanted} is false when the handshake arrived: then the
   * worker is killed unheard (its pool was retired meanwhile) and the start is refused {@code
   * worker_terminated}.
   */
  static Start start(
      LongLivedProcess.Start launched,
      ProtocolId protocol,
      Duration timeout,
      boolean callerBound,
      WorkerEvents.Life life,
      BooleanSupplier wanted) {
    if (launched instanceof LongLivedProcess.Start.NotStarted) {
      return new Start.Refused(
          new Reply.Failed(RunFailure.EXECUTION_FAILED),
          Optional.empty(),
          Start.Why.FAILED,
          Optional.empty());
    }
    if (launched instanceof LongLivedProcess.Start.Mismatch) {
      return new Start.Refused(
          new Reply.Mismatch(), Optional.empty(), Start.Why.MISMATCH, Optional.empty());
    }
    LongLivedProcess process = ((LongLivedProcess.Start.Running) launched).process();
    Worker worker = new Worker(process, protocol, life);
    worker.streams.start();
    boolean ok;
    Start.Why why = Start.Why.FAILED;
    try {
      ok = worker.handshake.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      ok = false;
      why = callerBound ? Start.Why.OUT_OF_TIME : Start.Why.FAILED;
    } catch (ExecutionException e) {
      ok = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ok = false;
      why = Start.Why.CANCELLED;
    }
    if (!ok) {
      // reported as a failed handshake: never announced
      worker.kill(why == Start.Why.CANCELLED ? Reason.CANCELLED : Reason.TIMEOUT);
      RunFailure failure =
          switch (why) {
            case OUT_OF_TIME -> RunFailure.TIMEOUT;
            case CANCELLED -> RunFailure.CANCELLED;
            default -> RunFailure.WORKER_HANDSHAKE_FAILED;
          };
      return new Start.Refused(
          new Reply.Failed(failure),
          Optional.of(process.stderrTail()),
          why,
          Optional.ofNullable(worker.handshakeLine));
    }
    synchronized (worker.reports) {
      if (!wanted.getAsBoolean()) {
        worker.unwanted = true;
      } else if (!worker.ended.get()) {
        worker.announced = true;
        life.spawned(process.pid());
      }
    }
    if (worker.unwanted) {
      worker.kill(Reason.LIFECYCLE);
      return new Start.Refused(
          new Reply.Failed(RunFailure.WORKER_TERMINATED),
          Optional.empty(),
          Start.Why.RETIRED,
          Optional.empty());
    }
    return new Start.Ready(worker);
  }

  /** Returns the process id (for tests and diagnostics). */
  long pid() {
    return process.pid();
  }

  /** Returns whether the whole tree has been terminated. */
  boolean finished() {
    return process.terminated();
  }

  /** Returns whether the worker can take requests. */
  boolean usable() {
    return !dead;
  }

  /**
   * Returns true exactly once for a worker that ended on its own (exited, was killed from outside,
   * broke the frame protocol), never for one the host retired or killed (timeout, cancel, close).
   */
  boolean reportBreak() {
    return broke && reported.compareAndSet(false, true);
  }

  /** Returns whether the worker has answered at least one request. */
  boolean answeredAny() {
    return served.get() > 0;
  }

  /** Returns the last bytes the worker wrote to stderr. */
  byte[] stderrTail() {
    return process.stderrTail();
  }

  /**
   * Returns whether the worker's handshake announced the {@code trace_context} feature: its request
   * frames may carry a {@code trace} (docs/contract/worker.md#trace-context).
   */
  boolean tracesContext() {
    return tracesContext;
  }

  /** A request frame queued for the worker: its reply comes with {@link #await}. */
  record Sent(String id, CompletableFuture<Reply> reply) {}

  /**
   * Queues the frame of {@code request} for the writer thread (a dead worker's request is answered
   * {@code worker_terminated} at once), with {@code trace} in the frame when present and the worker
   * {@linkplain #tracesContext() announced} it (never else). The pool orders this call with
   * lifecycle commits.
   */
  Sent send(byte[] request, Optional<TraceContext> trace) {
    String id = Long.toString(nextId.incrementAndGet());
    CompletableFuture<Reply> reply = new CompletableFuture<>();
    inFlight.put(id, reply);
    if (dead) {
      inFlight.remove(id);
      reply.complete(new Reply.Failed(RunFailure.WORKER_TERMINATED));
    } else {
      streams.send(WorkerFrames.request(id, request, tracesContext ? trace : Optional.empty()));
    }
    return new Sent(id, reply);
  }

  /**
   * Waits up to {@code timeout} for the reply to {@code sent}; a timeout kills the worker (this
   * request ends {@code timeout}, the others in flight {@code worker_terminated}).
   */
  Reply await(Sent sent, Duration timeout) {
    CompletableFuture<Reply> reply = sent.reply();
    boolean interrupted = false;
    try {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        try {
          return reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
          if (reply.complete(new Reply.Failed(RunFailure.CANCELLED))) {
            kill(Reason.CANCELLED);
          }
        } catch (TimeoutException e) {
          if (reply.complete(new Reply.Failed(RunFailure.TIMEOUT))) {
            kill(Reason.TIMEOUT);
          }
        } catch (ExecutionException e) {
          return new Reply.Failed(RunFailure.WORKER_TERMINATED);
        }
      }
    } finally {
      inFlight.remove(sent.id());
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Kills the whole tree now ({@code reason}: why LoopX ends it); every request in flight ends
   * {@code worker_terminated}.
   */
  void kill(Reason reason) {
    boolean first = ended.compareAndSet(false, true);
    dead = true;
    streams.stop();
    failAll();
    process.terminate(Duration.ZERO);
    if (first) {
      reportEnd(reason, OptionalInt.empty());
    }
  }

  /**
   * Closes stdin, waits up to {@code patience} for the worker to exit, then kills what is left
   * ({@code reason}: why LoopX ends it).
   */
  void stop(Duration patience, Reason reason) {
    boolean first = ended.compareAndSet(false, true);
    dead = true;
    streams.stop();
    process.stop(patience);
    failAll();
    if (first) {
      reportEnd(reason, OptionalInt.empty());
    }
  }

  /**
   * The worker ended on its own (its stdout ended or its stdin broke): a crash, unless retired.
   * When the memory limit's enforcement killed it (asked of its cgroup before it is removed), every
   * request in flight ends {@code memory_limit}, else {@code worker_terminated}.
   */
  private void crashed() {
    boolean first = ended.compareAndSet(false, true);
    dead = true;
    streams.stop();
    RunFailure failure =
        process.killedForMemory() ? RunFailure.MEMORY_LIMIT : RunFailure.WORKER_TERMINATED;
    failAll(failure);
    OptionalInt exit = first ? process.awaitExit(EXIT_PATIENCE) : OptionalInt.empty();
    process.terminate(Duration.ZERO);
    if (first) {
      reportEnd(null, exit, failure);
    }
  }

  /** Reports how the worker ended: {@code reason} null for a crash. */
  private void reportEnd(@Nullable Reason reason, OptionalInt exit) {
    reportEnd(reason, exit, RunFailure.WORKER_TERMINATED);
  }

  /** Reports how the worker ended: {@code reason} null for a crash that ended as {@code crash}. */
  private void reportEnd(@Nullable Reason reason, OptionalInt exit, RunFailure crash) {
    synchronized (reports) {
      if (unwanted) {
        return;
      }
      if (!announced) {
        life.crashed(process.pid(), exit, RunFailure.WORKER_HANDSHAKE_FAILED, served.get());
      } else if (reason == null) {
        life.crashed(process.pid(), exit, crash, served.get());
      } else {
        life.retired(process.pid(), reason, served.get());
      }
    }
  }

  private void failAll() {
    failAll(RunFailure.WORKER_TERMINATED);
  }

  /** Ends every request in flight with {@code failure}. */
  private void failAll(RunFailure failure) {
    handshake.complete(false);
    for (String id : new ArrayList<>(inFlight.keySet())) {
      CompletableFuture<Reply> pending = inFlight.remove(id);
      if (pending != null) {
        pending.complete(new Reply.Failed(failure));
      }
    }
  }

  /** Its stdout ended or its stdin broke. */
  private void endedOnItsOwn() {
    markBroken();
    crashed();
  }

  /** Notes that the worker ended or broke the protocol on its own (not the host). */
  private void markBroken() {
    if (!dead) {
      broke = true;
    }
  }

  /** A line over the limit: {@code prefix[0, length)} is its start, where its id may be. */
  private void tooLong(byte[] prefix, int length) {
    Optional<String> id = WorkerFrames.leadingId(prefix, length);
    if (id.isPresent()) {
      CompletableFuture<Reply> culprit = inFlight.remove(id.get());
      if (culprit != null) {
        culprit.complete(new Reply.Failed(RunFailure.RESPONSE_TOO_LARGE));
      }
    }
    markBroken();
    kill(Reason.RESPONSE_TOO_LARGE);
  }

  /** Takes one complete line; false when it broke the protocol and the worker was killed. */
  private boolean accept(byte[] line, int length) {
    Reason broken = judge(line, length);
    if (broken != null) {
      markBroken();
      kill(broken);
      return false;
    }
    return true;
  }

  /** Judges one complete line; returns why it breaks the protocol, or null. */
  private @Nullable Reason judge(byte[] line, int length) {
    if (!handshake.isDone()) {
      Optional<Set<String>> features = WorkerFrames.handshake(line, length, protocol);
      boolean ok = features.isPresent();
      if (!ok) {
        handshakeLine = OutputPreview.of(line, length); // before the start sees the verdict
      } else {
        tracesContext = features.get().contains(WorkerWire.TRACE_CONTEXT_FEATURE);
      }
      handshake.complete(ok);
      return ok ? null : Reason.MALFORMED_FRAME;
    }
    Optional<WorkerFrames.Response> response = WorkerFrames.response(line, length);
    if (response.isEmpty()) {
      return Reason.MALFORMED_FRAME;
    }
    CompletableFuture<Reply> pending = inFlight.remove(response.get().id());
    if (pending == null) {
      return Reason.UNKNOWN_RESPONSE; // or a second response to one request
    }
    served.incrementAndGet();
    pending.complete(new Reply.Answered(response.get().response()));
    return null;
  }
}
