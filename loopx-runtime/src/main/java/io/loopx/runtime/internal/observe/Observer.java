package io.loopx.runtime.internal.observe;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.events.CallOutcome;
import io.loopx.runtime.events.DispatchCompleted;
import io.loopx.runtime.events.DoctorProgress;
import io.loopx.runtime.events.DoctorResult;
import io.loopx.runtime.events.LifecycleTransition;
import io.loopx.runtime.events.LoopxEvent;
import io.loopx.runtime.events.LoopxListener;
import io.loopx.runtime.events.RunCompleted;
import io.loopx.runtime.events.StoreConflict;
import io.loopx.runtime.events.TransitionCause;
import io.loopx.runtime.events.WorkerCrashed;
import io.loopx.runtime.events.WorkerRetireReason;
import io.loopx.runtime.events.WorkerRetired;
import io.loopx.runtime.events.WorkerSpawned;
import io.loopx.runtime.internal.worker.WorkerEvents;
import io.loopx.runtime.lifecycle.ActivationReceipt;
import io.loopx.runtime.lifecycle.DoctorBatchReceipt;
import io.loopx.runtime.lifecycle.DoctorNotReadyException;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.RollbackReceipt;
import io.loopx.runtime.lifecycle.ToggleReceipt;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunStatus;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What one {@code Loopx} tells the outside world (docs/observing.md): the events for its listeners,
 * one {@link System.Logger} line per executed change and per failure, and the JFR events of its
 * writes, dispatches and runs.
 *
 * <p>Delivery: every batch of events takes a ticket; a write takes its ticket while it still holds
 * this observer's commit lock, right after the store returned, so tickets follow commit order.
 * Batches are delivered in ticket order on the thread that produced them, after the write and after
 * the state lock was released. Events of a write made by a listener (on the delivering thread) are
 * delivered by that thread once the current event is done, still in ticket order. Without listeners
 * nothing is locked or sequenced. Worker events are produced on the thread that started or ended
 * the worker ({@link #workerEvents}) and take their ticket like any other batch.
 */
public final class Observer {
  /** The logger name LoopX logs under. */
  public static final String LOGGER_NAME = "io.loopx";

  private final List<LoopxListener> listeners;
  private final System.Logger log;
  private final ReentrantLock commitLock = new ReentrantLock();
  private final AtomicLong tickets = new AtomicLong();
  private final ReentrantLock turnLock = new ReentrantLock();
  private final Condition turn = turnLock.newCondition();
  private long nowServing; // guarded by turnLock
  private final ThreadLocal<Deque<Batch>> nested = ThreadLocal.withInitial(ArrayDeque::new);
  private final ThreadLocal<Boolean> delivering = ThreadLocal.withInitial(() -> false);
  private final Set<LoopxListener> reported = ConcurrentHashMap.newKeySet();

  private record Batch(long ticket, List<LoopxEvent> events) {}

  /** Creates an observer delivering to {@code listeners} and logging to {@code log}. */
  public Observer(List<LoopxListener> listeners, System.Logger log) {
    this.listeners = List.copyOf(listeners);
    this.log = log;
  }

  /** Returns an observer without listeners that logs to {@link #LOGGER_NAME}. */
  public static Observer silent() {
    return new Observer(List.of(), System.getLogger(LOGGER_NAME));
  }

  // ------------------------------------------------------------------ writes

  /**
   * Applies {@code changes} through {@code store} (see {@link ActivationStore#update}) and then
   * reports it: a JFR write event, one log line and one {@link LifecycleTransition} per changed
   * entry, after the {@code before} events (the doctor results of the command); a refused
   * compare-and-set is a {@link StoreConflict}.
   *
   * @param doctor the doctor status the command evaluated, by extension
   */
  public ActivationState commit(
      ActivationStore store,
      String operation,
      List<EntryChange> changes,
      Map<ExtensionId, DoctorStatus> doctor,
      List<LoopxEvent> before) {
    return commit(store, operation, changes, doctor, before, Supplier::get);
  }

  /**
   * As {@link #commit(ActivationStore, String, List, Map, List)}, the store's write made through
   * {@code ordering} (which may hold a lock around it and act on its result before it returns);
   * events are delivered after {@code ordering} returned.
   */
  public ActivationState commit(
      ActivationStore store,
      String operation,
      List<EntryChange> changes,
      Map<ExtensionId, DoctorStatus> doctor,
      List<LoopxEvent> before,
      Function<Supplier<ActivationState>, ActivationState> ordering) {
    JfrEvents.LifecycleWrite jfr = new JfrEvents.LifecycleWrite();
    jfr.begin();
    boolean sequenced = !listeners.isEmpty();
    if (sequenced) {
      commitLock.lock();
    }
    ActivationState after;
    long ticket;
    try {
      after = ordering.apply(() -> store.update(operation, changes));
      ticket = sequenced ? tickets.getAndIncrement() : -1;
    } catch (RuntimeException e) {
      long failedTicket = sequenced ? tickets.getAndIncrement() : -1;
      unlock(sequenced);
      refused(jfr, operation, changes, e, failedTicket, before);
      throw e;
    } finally {
      unlock(sequenced);
    }
    List<LoopxEvent> events = new ArrayList<>(before);
    try {
      writeEvent(jfr, operation, changes, "written");
      for (EntryChange c : changes) {
        if (!c.changes()) {
          continue;
        }
        LifecycleTransition t = transition(operation, c, doctor);
        events.add(t);
        log.log(Level.INFO, () -> line(t));
      }
    } finally {
      deliver(ticket, events); // always: a ticket never delivered would stall every later one
    }
    return after;
  }

  private void refused(
      JfrEvents.LifecycleWrite jfr,
      String operation,
      List<EntryChange> changes,
      RuntimeException e,
      long ticket,
      List<LoopxEvent> before) {
    List<LoopxEvent> events = new ArrayList<>(before);
    String outcome = "failed";
    if (e instanceof LoopxException l) {
      outcome = l.kind().wireName();
      if (l.kind() == ErrorKind.STATE_CONFLICT) {
        List<ExtensionId> ids = changes.stream().map(EntryChange::id).toList();
        events.add(new StoreConflict(operation, ids));
        log.log(Level.WARNING, () -> "loopx: " + operation + " refused: state changed " + ids);
      }
    }
    try {
      writeEvent(jfr, operation, changes, outcome);
    } finally {
      deliver(ticket, events);
    }
  }

  /** Returns a store that reads through {@code store} and writes through {@link #commit}. */
  public ActivationStore writingThrough(ActivationStore store) {
    Observer self = this;
    return new ActivationStore() {
      @Override
      public ActivationState read() {
        return store.read();
      }

      @Override
      public Optional<ExtensionRecord> entry(ExtensionId id) {
        return store.entry(id); // a store's own one-entry read (one query for a database)
      }

      @Override
      public ActivationState update(String operation, List<EntryChange> changes) {
        return self.commit(store, operation, changes, Map.of(), List.of());
      }
    };
  }

  private void unlock(boolean sequenced) {
    if (sequenced && commitLock.isHeldByCurrentThread()) {
      commitLock.unlock();
    }
  }

  private static void writeEvent(
      JfrEvents.LifecycleWrite jfr, String operation, List<EntryChange> changes, String outcome) {
    jfr.end();
    if (jfr.shouldCommit()) {
      jfr.operation = operation;
      jfr.extensions = String.join(",", changes.stream().map(c -> c.id().value()).toList());
      jfr.outcome = outcome;
      jfr.commit();
    }
  }

  private static LifecycleTransition transition(
      String operation, EntryChange c, Map<ExtensionId, DoctorStatus> doctor) {
    Optional<DoctorStatus> status = Optional.ofNullable(doctor.get(c.id()));
    TransitionCause cause;
    if (operation.equals("run") || operation.equals("dispatch")) {
      cause = TransitionCause.CHANGED_DURING_CALL;
    } else if (status.isPresent() && status.get() != DoctorStatus.READY) {
      cause = TransitionCause.FAILED_PROBE;
    } else {
      cause = TransitionCause.COMMAND;
    }
    return new LifecycleTransition(
        operation,
        c.id(),
        c.expected().map(ExtensionRecord::activeRevision),
        c.replacement().map(ExtensionRecord::activeRevision),
        c.expected().map(ExtensionRecord::enabled).orElse(false),
        c.replacement().map(ExtensionRecord::enabled).orElse(false),
        status,
        cause);
  }

  static String line(LifecycleTransition t) {
    return "loopx: "
        + t.operation()
        + " "
        + t.extensionId()
        + " revision "
        + t.previousRevision().map(Object::toString).orElse("-")
        + " -> "
        + t.newRevision().map(Object::toString).orElse("-")
        + ", enabled "
        + t.enabledBefore()
        + " -> "
        + t.enabledAfter()
        + t.doctorStatus().map(s -> ", doctor " + s.wireName()).orElse("")
        + " ("
        + t.cause().wireName()
        + ")";
  }

  // ------------------------------------------------------------------ lifecycle commands

  /** Returns the doctor packets a lifecycle command's receipt or failure carries. */
  public static List<DoctorReceipt> packets(
      Optional<? extends Receipt> receipt, Optional<?> failure) {
    List<DoctorReceipt> packets = new ArrayList<>();
    receipt.ifPresent(
        r -> {
          if (r instanceof DoctorReceipt d) {
            packets.add(d);
          } else if (r instanceof DoctorBatchReceipt b) {
            packets.addAll(b.packets());
          } else if (r instanceof ActivationReceipt a) {
            packets.add(a.doctor());
          } else if (r instanceof RollbackReceipt rb) {
            packets.add(rb.doctor());
          } else if (r instanceof ToggleReceipt t) {
            t.doctor().ifPresent(packets::add);
          }
        });
    failure.ifPresent(
        f -> {
          if (f instanceof DoctorNotReadyException n) {
            packets.add(n.doctor());
          }
        });
    return packets;
  }

  /**
   * Returns the {@link DoctorResult}s of {@code packets}, with the wall time each extension's
   * evaluation took ({@code durations}; zero for an extension not in it).
   */
  public static List<LoopxEvent> doctorResults(
      String operation, List<DoctorReceipt> packets, Map<ExtensionId, Duration> durations) {
    List<LoopxEvent> events = new ArrayList<>();
    for (DoctorReceipt p : packets) {
      events.add(
          new DoctorResult(
              operation,
              p.extensionId(),
              p.version(),
              p.status(),
              p.failure(),
              durations.getOrDefault(p.extensionId(), Duration.ZERO)));
    }
    return events;
  }

  /** Returns the status of each packet, by extension. */
  public static Map<ExtensionId, DoctorStatus> statuses(List<DoctorReceipt> packets) {
    Map<ExtensionId, DoctorStatus> statuses = new HashMap<>();
    packets.forEach(p -> statuses.put(p.extensionId(), p.status()));
    return statuses;
  }

  /** Delivers events that report no write (doctor results of a command that wrote nothing). */
  public void publish(List<LoopxEvent> events) {
    if (listeners.isEmpty() || events.isEmpty()) {
      return;
    }
    deliver(tickets.getAndIncrement(), events);
  }

  /** Reports that a doctor batch is about to probe extension {@code index} of {@code total}. */
  public void progress(int index, int total, ExtensionId id) {
    publish(List.of(new DoctorProgress(index, total, id)));
  }

  /** Logs a failed lifecycle command: executed at INFO (WARNING for operational kinds). */
  public void lifecycleFailed(String operation, boolean execute, LoopxException e) {
    Level level = !execute ? Level.DEBUG : operational(e.kind()) ? Level.WARNING : Level.INFO;
    log.log(
        level,
        () ->
            "loopx: "
                + operation
                + (execute ? "" : " preview")
                + " failed ["
                + e.kind().wireName()
                + "]: "
                + e.getMessage());
  }

  private static boolean operational(ErrorKind kind) {
    return switch (kind) {
      case STATE_UNREADABLE, STATE_LOCKED, STATE_CONFLICT, IO_FAILED, ENVELOPE_MISMATCH -> true;
      default -> false;
    };
  }

  // ------------------------------------------------------------------ calls

  /** Measures and reports one dispatch: JFR, a log line, a {@link DispatchCompleted}. */
  public DispatchReceipt dispatch(
      DispatchRequest request, boolean preview, Supplier<DispatchReceipt> call) {
    JfrEvents.Dispatch jfr = new JfrEvents.Dispatch();
    jfr.begin();
    long start = System.nanoTime();
    DispatchReceipt receipt;
    try {
      receipt = call.get();
    } catch (LoopxException e) {
      CallOutcome outcome = CallOutcome.refused(e.kind());
      dispatched(jfr, request, Optional.empty(), preview, start, outcome);
      throw e;
    }
    dispatched(
        jfr, request, Optional.of(receipt), preview, start, CallOutcome.of(receipt.outcome()));
    return receipt;
  }

  private void dispatched(
      JfrEvents.Dispatch jfr,
      DispatchRequest request,
      Optional<DispatchReceipt> receipt,
      boolean preview,
      long start,
      CallOutcome outcome) {
    Duration duration = Duration.ofNanos(System.nanoTime() - start);
    jfr.end();
    if (jfr.shouldCommit()) {
      jfr.capability = request.capabilityId().value();
      jfr.protocol = request.protocol().value();
      jfr.action = request.action().value();
      jfr.provider = receipt.map(r -> r.providerId().value()).orElse("");
      jfr.revision = receipt.map(r -> r.revision().value()).orElse("");
      jfr.preview = preview;
      jfr.outcome = outcome.wireName();
      jfr.commit();
    }
    DispatchCompleted event =
        new DispatchCompleted(
            request.capabilityId(),
            request.protocol(),
            request.action(),
            receipt.map(DispatchReceipt::providerId),
            receipt.map(DispatchReceipt::revision),
            preview,
            duration,
            outcome);
    callLine(
        preview,
        outcome,
        () ->
            "loopx: dispatch "
                + request.capabilityId()
                + " "
                + request.action()
                + event.providerId().map(p -> " by " + p).orElse("")
                + (preview ? " preview" : "")
                + ": "
                + outcome.wireName()
                + " in "
                + duration.toMillis()
                + " ms");
    publish(List.of(event));
  }

  /** Measures and reports one run: JFR, a log line, a {@link RunCompleted}. */
  public RunReceipt run(ExtensionId id, boolean preview, Supplier<RunReceipt> call) {
    JfrEvents.Run jfr = new JfrEvents.Run();
    jfr.begin();
    long start = System.nanoTime();
    RunReceipt receipt;
    try {
      receipt = call.get();
    } catch (LoopxException e) {
      ran(jfr, id, Optional.empty(), preview, start, CallOutcome.refused(e.kind()));
      throw e;
    }
    ran(jfr, id, Optional.of(receipt), preview, start, CallOutcome.of(receipt.outcome()));
    return receipt;
  }

  private void ran(
      JfrEvents.Run jfr,
      ExtensionId id,
      Optional<RunReceipt> receipt,
      boolean preview,
      long start,
      CallOutcome outcome) {
    Duration duration = Duration.ofNanos(System.nanoTime() - start);
    jfr.end();
    if (jfr.shouldCommit()) {
      jfr.extension = id.value();
      jfr.revision = receipt.map(r -> r.revision().value()).orElse("");
      jfr.preview = preview;
      jfr.outcome = outcome.wireName();
      jfr.commit();
    }
    RunCompleted event =
        new RunCompleted(id, receipt.map(RunReceipt::revision), preview, duration, outcome);
    callLine(
        preview,
        outcome,
        () ->
            "loopx: run "
                + id
                + (preview ? " preview" : "")
                + ": "
                + outcome.wireName()
                + " in "
                + duration.toMillis()
                + " ms");
    publish(List.of(event));
  }

  /**
   * A call's line, by the one rule of docs/observing.md: a failure of the provider or its process
   * (status {@code provider_failed} or {@code invalid_provider_output}, whatever its failure kind,
   * an {@code ok:false} answer included) is WARNING; a call refused before a provider ran is INFO
   * (WARNING for operational kinds); a success or a preview DEBUG. The line names ids and statuses,
   * never the request or the response.
   */
  private void callLine(boolean preview, CallOutcome outcome, Supplier<String> line) {
    Level level;
    if (outcome.error().isPresent()) {
      level = operational(outcome.error().get()) ? Level.WARNING : Level.INFO;
    } else if (outcome.failure().isPresent()
        || outcome
            .status()
            .filter(s -> s == RunStatus.PROVIDER_FAILED || s == RunStatus.INVALID_PROVIDER_OUTPUT)
            .isPresent()) {
      level = Level.WARNING;
    } else {
      level = Level.DEBUG;
    }
    if (preview && level != Level.WARNING) {
      level = Level.DEBUG;
    }
    log.log(level, line);
  }

  // ------------------------------------------------------------------ workers

  /**
   * Returns the hook that reports every warm worker's life: a JFR event, a log line and a {@link
   * WorkerSpawned}, {@link WorkerRetired} or {@link WorkerCrashed}, on the thread that started or
   * ended the worker.
   */
  public WorkerEvents workerEvents() {
    return WorkerLife::new;
  }

  /** One worker's life, from the moment its launch began. */
  private final class WorkerLife implements WorkerEvents.Life {
    private final ExtensionId id;
    private final Revision revision;
    private final long launched = System.nanoTime();
    private final JfrEvents.WorkerSpawn spawn = new JfrEvents.WorkerSpawn();
    private final JfrEvents.WorkerRetire retire = new JfrEvents.WorkerRetire();
    private final JfrEvents.WorkerCrash crash = new JfrEvents.WorkerCrash();

    WorkerLife(ExtensionId id, Revision revision) {
      this.id = id;
      this.revision = revision;
      spawn.begin();
      retire.begin();
      crash.begin();
    }

    @Override
    public void spawned(long pid) {
      Duration took = since();
      spawn.end();
      if (spawn.shouldCommit()) {
        spawn.extension = id.value();
        spawn.revision = revision.value();
        spawn.pid = pid;
        spawn.commit();
      }
      log.log(Level.DEBUG, () -> worker(pid) + " spawned in " + took.toMillis() + " ms");
      publish(List.of(new WorkerSpawned(id, revision, pid, took)));
    }

    @Override
    public void retired(long pid, WorkerRetireReason reason, long served) {
      Duration lifetime = since();
      retire.end();
      if (retire.shouldCommit()) {
        retire.extension = id.value();
        retire.revision = revision.value();
        retire.pid = pid;
        retire.reason = reason.wireName();
        retire.served = served;
        retire.commit();
      }
      Level level =
          switch (reason) {
            case IDLE, RECYCLED, LIFECYCLE, CLOSED -> Level.DEBUG;
            case TIMEOUT, CANCELLED -> Level.INFO;
            case MALFORMED_FRAME, UNKNOWN_RESPONSE, RESPONSE_TOO_LARGE -> Level.WARNING;
          };
      log.log(
          level,
          () ->
              worker(pid)
                  + " retired ("
                  + reason.wireName()
                  + ") after "
                  + served
                  + " requests in "
                  + lifetime.toMillis()
                  + " ms");
      publish(List.of(new WorkerRetired(id, revision, pid, reason, served, lifetime)));
    }

    @Override
    public void crashed(long pid, OptionalInt exitCode, RunFailure failure, long served) {
      Duration lifetime = since();
      crash.end();
      if (crash.shouldCommit()) {
        crash.extension = id.value();
        crash.revision = revision.value();
        crash.pid = pid;
        crash.failure = failure.wireName();
        crash.exitCode = exitCode.orElse(-1);
        crash.served = served;
        crash.commit();
      }
      log.log(
          Level.WARNING,
          () ->
              worker(pid)
                  + " crashed ("
                  + failure.wireName()
                  + (exitCode.isPresent() ? ", exit " + exitCode.getAsInt() : "")
                  + ") after "
                  + served
                  + " requests in "
                  + lifetime.toMillis()
                  + " ms");
      publish(List.of(new WorkerCrashed(id, revision, pid, exitCode, failure, served, lifetime)));
    }

    private Duration since() {
      return Duration.ofNanos(System.nanoTime() - launched);
    }

    private String worker(long pid) {
      return "loopx: worker " + id + " " + revision + " pid " + pid;
    }
  }

  // ------------------------------------------------------------------ delivery

  private void deliver(long ticket, List<LoopxEvent> events) {
    if (ticket < 0) {
      return;
    }
    Deque<Batch> mine = nested.get();
    mine.add(new Batch(ticket, List.copyOf(events)));
    if (delivering.get()) {
      return; // a listener wrote: the outer delivery on this thread takes it in turn
    }
    delivering.set(true);
    try {
      while (!mine.isEmpty()) {
        Batch b = mine.poll();
        awaitTurn(b.ticket());
        try {
          b.events().forEach(this::toListeners);
        } finally {
          advance();
        }
      }
    } finally {
      delivering.set(false);
    }
  }

  private void awaitTurn(long ticket) {
    turnLock.lock();
    try {
      while (nowServing != ticket) {
        turn.awaitUninterruptibly();
      }
    } finally {
      turnLock.unlock();
    }
  }

  private void advance() {
    turnLock.lock();
    try {
      nowServing++;
      turn.signalAll();
    } finally {
      turnLock.unlock();
    }
  }

  @SuppressWarnings("IllegalCatch")
  private void toListeners(LoopxEvent event) {
    for (LoopxListener l : listeners) {
      try {
        l.onEvent(event);
      } catch (RuntimeException e) {
        if (reported.add(l)) {
          log.log(
              Level.WARNING,
              "loopx: listener "
                  + l.getClass().getName()
                  + " threw on "
                  + event.getClass().getSimpleName()
                  + "; its later failures are not logged",
              e);
        }
      }
    }
  }
}
