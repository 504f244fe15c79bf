package io.loopx.runtime.internal.worker;

import io.loopx.api.ProtocolId;
import io.loopx.runtime.internal.process.LongLivedProcess;
import io.loopx.runtime.run.RunFailure;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One worker process: the handshake, a writer thread that sends request frames, a reader thread
 * that matches response frames to the requests in flight, and the rules of docs/contract/worker.md
 * for everything else: a malformed frame, a response to an unknown id (a second response to one
 * request among them) or a line over {@link WorkerFrames#LINE_LIMIT} kill the whole tree, and every
 * request still in flight ends {@code worker_terminated}. Thread-safe; the pool's counters ({@link
 * #admitted}, {@link #started}, {@link #lastUsed}) are guarded by the pool.
 */
final class Worker {
  private static final byte[] STOP = new byte[0];

  private final LongLivedProcess process;
  private final Map<String, CompletableFuture<Reply>> inFlight = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong();
  private final LinkedBlockingQueue<byte[]> outbox = new LinkedBlockingQueue<>();
  private final CompletableFuture<Boolean> handshake = new CompletableFuture<>();
  private final ProtocolId protocol;
  private final AtomicLong answered = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicBoolean reported =
      new java.util.concurrent.atomic.AtomicBoolean();
  private volatile boolean dead;
  private volatile boolean broke;

  // Guarded by the pool.
  int admitted;
  int started;
  long lastUsed = System.nanoTime();

  private Worker(LongLivedProcess process, ProtocolId protocol) {
    this.process = process;
    this.protocol = protocol;
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
     */
    record Refused(Reply reply, Optional<byte[]> stderr, Why why) implements Start {}

    /** Why a start was refused. */
    enum Why {
      /** Not started, or the handshake was wrong, or missing when its time was up. */
      FAILED,
      /** The handshake was still missing when the caller's time was up (not the worker's fault). */
      OUT_OF_TIME,
      /** The starting thread was interrupted. */
      CANCELLED,
      /** The process executed other bytes than the hashed file. */
      MISMATCH
    }
  }

  /**
   * Starts the process and waits for its handshake within {@code timeout}; {@code callerBound} says
   * that {@code timeout} is shorter than the manifest's because of the caller's deadline (a
   * handshake missing at its end is then {@code timeout}, not a failed start).
   */
  static Start start(
      LongLivedProcess.Start launched, ProtocolId protocol, Duration timeout, boolean callerBound) {
    if (launched instanceof LongLivedProcess.Start.NotStarted) {
      return new Start.Refused(
          new Reply.Failed(RunFailure.EXECUTION_FAILED), Optional.empty(), Start.Why.FAILED);
    }
    if (launched instanceof LongLivedProcess.Start.Mismatch) {
      return new Start.Refused(new Reply.Mismatch(), Optional.empty(), Start.Why.MISMATCH);
    }
    LongLivedProcess process = ((LongLivedProcess.Start.Running) launched).process();
    Worker worker = new Worker(process, protocol);
    worker.thread("stdout", worker::read);
    worker.thread("stdin", worker::write);
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
      worker.kill();
      RunFailure failure =
          switch (why) {
            case OUT_OF_TIME -> RunFailure.TIMEOUT;
            case CANCELLED -> RunFailure.CANCELLED;
            default -> RunFailure.WORKER_HANDSHAKE_FAILED;
          };
      return new Start.Refused(new Reply.Failed(failure), Optional.of(process.stderrTail()), why);
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
    return answered.get() > 0;
  }

  /** Returns the last bytes the worker wrote to stderr. */
  byte[] stderrTail() {
    return process.stderrTail();
  }

  /**
   * Sends {@code request} and waits for its reply up to {@code timeout}; a timeout kills the worker
   * (this request ends {@code timeout}, the others in flight {@code worker_terminated}).
   */
  Reply call(byte[] request, Duration timeout) {
    String id = Long.toString(nextId.incrementAndGet());
    CompletableFuture<Reply> reply = new CompletableFuture<>();
    inFlight.put(id, reply);
    if (dead) {
      inFlight.remove(id);
      return new Reply.Failed(RunFailure.WORKER_TERMINATED);
    }
    outbox.add(WorkerFrames.request(id, request));
    boolean interrupted = false;
    try {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        try {
          return reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
          if (reply.complete(new Reply.Failed(RunFailure.CANCELLED))) {
            kill();
          }
        } catch (TimeoutException e) {
          if (reply.complete(new Reply.Failed(RunFailure.TIMEOUT))) {
            kill();
          }
        } catch (ExecutionException e) {
          return new Reply.Failed(RunFailure.WORKER_TERMINATED);
        }
      }
    } finally {
      inFlight.remove(id);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Kills the whole tree now; every request in flight ends {@code worker_terminated}. */
  void kill() {
    dead = true;
    outbox.add(STOP);
    failAll();
    process.terminate(Duration.ZERO);
  }

  /** Closes stdin, waits up to {@code patience} for the worker to exit, then kills what is left. */
  void stop(Duration patience) {
    dead = true;
    outbox.add(STOP);
    process.stop(patience);
    failAll();
  }

  private void failAll() {
    handshake.complete(false);
    for (String id : new ArrayList<>(inFlight.keySet())) {
      CompletableFuture<Reply> pending = inFlight.remove(id);
      if (pending != null) {
        pending.complete(new Reply.Failed(RunFailure.WORKER_TERMINATED));
      }
    }
  }

  private void thread(String stream, Runnable body) {
    Thread t = new Thread(body, "loopx-worker-" + process.pid() + "-" + stream);
    t.setDaemon(true);
    t.start();
  }

  private void write() {
    OutputStream stdin = process.stdin();
    try {
      while (true) {
        byte[] frame = outbox.take();
        if (frame == STOP) {
          return;
        }
        stdin.write(frame);
        if (outbox.isEmpty()) {
          stdin.flush();
        }
      }
    } catch (IOException e) {
      breakDown();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void read() {
    InputStream stdout = process.stdout();
    byte[] chunk = new byte[65536];
    byte[] line = new byte[8192];
    int length = 0;
    try {
      int n;
      while ((n = stdout.read(chunk)) >= 0) {
        int from = 0;
        for (int i = 0; i < n; i++) {
          if (chunk[i] != '\n') {
            continue;
          }
          int part = i - from;
          if (length + part > WorkerFrames.LINE_LIMIT) {
            tooLong(line, length, chunk, from, part);
            return;
          }
          line = append(line, length, chunk, from, part);
          length += part;
          if (!accept(line, length)) {
            breakDown();
            return;
          }
          length = 0;
          from = i + 1;
        }
        int rest = n - from;
        if (length + rest > WorkerFrames.LINE_LIMIT) {
          tooLong(line, length, chunk, from, rest);
          return;
        }
        line = append(line, length, chunk, from, rest);
        length += rest;
      }
    } catch (IOException e) {
      // Killed or exited: the end of the stream.
    }
    breakDown();
  }

  /** Kills the tree of a worker that ended or broke the protocol on its own (not the host). */
  private void breakDown() {
    if (!dead) {
      broke = true;
    }
    kill();
  }

  private void tooLong(byte[] line, int length, byte[] chunk, int from, int part) {
    byte[] prefix = length >= 64 ? line : append(line, length, chunk, from, Math.min(part, 64));
    Optional<String> id = WorkerFrames.leadingId(prefix, Math.min(64, length + part));
    if (id.isPresent()) {
      CompletableFuture<Reply> culprit = inFlight.remove(id.get());
      if (culprit != null) {
        culprit.complete(new Reply.Failed(RunFailure.RESPONSE_TOO_LARGE));
      }
    }
    breakDown();
  }

  private static byte[] append(byte[] line, int length, byte[] chunk, int from, int part) {
    byte[] target = line;
    if (length + part > line.length) {
      target = Arrays.copyOf(line, Math.max(length + part, line.length * 2));
    }
    System.arraycopy(chunk, from, target, length, part);
    return target;
  }

  /** Handles one complete line; false when it breaks the protocol. */
  private boolean accept(byte[] line, int length) {
    if (!handshake.isDone()) {
      boolean ok = WorkerFrames.isHandshake(line, length, protocol);
      handshake.complete(ok);
      return ok;
    }
    Optional<WorkerFrames.Response> response = WorkerFrames.response(line, length);
    if (response.isEmpty()) {
      return false;
    }
    CompletableFuture<Reply> pending = inFlight.remove(response.get().id());
    if (pending == null) {
      return false; // an unknown id, or a second response to one request
    }
    answered.incrementAndGet();
    pending.complete(new Reply.Answered(response.get().response()));
    return true;
  }
}
