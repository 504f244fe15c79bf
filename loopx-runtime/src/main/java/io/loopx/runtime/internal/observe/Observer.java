package io.loopx.runtime.internal.observe;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.runtime.Mode;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.events.CallCompleted;
import io.loopx.runtime.events.CallObserver;
import io.loopx.runtime.events.DoctorResult;
import io.loopx.runtime.events.LifecycleTransition;
import io.loopx.runtime.events.LoopxEvent;
import io.loopx.runtime.events.LoopxListener;
import io.loopx.runtime.events.StoreConflict;
import io.loopx.runtime.events.TransitionCause;
import io.loopx.runtime.events.WorkerEvent;
import io.loopx.runtime.internal.worker.WorkerEvents;
import io.loopx.runtime.lifecycle.DoctorAllReceipt;
import io.loopx.runtime.lifecycle.DoctorNotReadyException;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What one {@code Loopx} tells the outside world (docs/observing.md): the events for its listeners,
 * one {@link System.Logger} line per executed change and per failure, and the JFR events of its
 * writes, dispatches and runs.
 *
 * <p>Delivery ({@link EventDelivery}): every batch of events takes a ticket; a write takes its
 * ticket while it still holds this observer's commit lock, right after the store returned, so
 * tickets follow commit order. Batches are delivered in ticket order on the thread that produced
 * them, after the write and after the state lock was released. Calls are reported by {@link
 * CallReporter}, workers' lives by {@link WorkerLife} on the thread that started or ended the
 * worker; their batches take their ticket like any other.
 */
public final class Observer {
  /** The logger name LoopX logs under. */
  public static final String LOGGER_NAME = "io.loopx";

  private final System.Logger log;
  private final EventDelivery delivery;
  private final CallReporter calls;
  private final CallObservers observers;
  private final ReentrantLock commitLock = new ReentrantLock();

  /** Creates an observer delivering to {@code listeners} and logging to {@code log}. */
  public Observer(List<LoopxListener> listeners, System.Logger log) {
    this(listeners, List.of(), log);
  }

  /**
   * Creates an observer delivering to {@code listeners}, bracketing calls with {@code observers}
   * (docs/observing.md#call-observers) and logging to {@code log}.
   */
  public Observer(List<LoopxListener> listeners, List<CallObserver> observers, System.Logger log) {
    this.log = log;
    this.delivery = new EventDelivery(listeners, log);
    this.observers = new CallObservers(observers, log);
    this.calls = new CallReporter(log, delivery, this.observers);
  }

  /** Returns an observer without listeners that logs to {@link #LOGGER_NAME}. */
  public static Observer silent() {
    return new Observer(List.of(), System.getLogger(LOGGER_NAME));
  }

  /** Returns whether the host observes calls (without, nothing is built for them). */
  public boolean observesCalls() {
    return observers.any();
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
    boolean sequenced = delivery.sequenced();
    if (sequenced) {
      commitLock.lock();
    }
    ActivationState after;
    long ticket;
    try {
      after = ordering.apply(() -> store.update(operation, changes));
      ticket = delivery.ticket();
    } catch (RuntimeException e) {
      long failedTicket = delivery.ticket();
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
      delivery.deliver(
          ticket, events); // always: a ticket never delivered would stall every later one
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
        events.add(new StoreConflictRecord(operation, ids));
        log.log(Level.WARNING, () -> "loopx: " + operation + " refused: state changed " + ids);
      }
    }
    try {
      writeEvent(jfr, operation, changes, outcome);
    } finally {
      delivery.deliver(ticket, events);
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
    return new LifecycleTransitionRecord(
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
          } else if (r instanceof DoctorAllReceipt b) {
            packets.addAll(b.packets());
          } else if (r instanceof LifecycleReceipt l) {
            l.doctor().ifPresent(packets::add);
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
          new DoctorResultRecord(
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
    delivery.publish(events);
  }

  /** Reports that a doctor batch is about to probe extension {@code index} of {@code total}. */
  public void progress(int index, int total, ExtensionId id) {
    publish(List.of(new DoctorProgressRecord(index, total, id)));
  }

  /** Logs a failed lifecycle command: executed at INFO (WARNING for operational kinds). */
  public void lifecycleFailed(String operation, Mode mode, LoopxException e) {
    boolean execute = mode.executes();
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

  static boolean operational(ErrorKind kind) {
    return switch (kind) {
      case STATE_UNREADABLE, STATE_LOCKED, STATE_CONFLICT, IO_FAILED, ENVELOPE_MISMATCH -> true;
      default -> false;
    };
  }

  // ------------------------------------------------------------------ calls

  /**
   * Measures and reports one dispatch: a {@code loopx.dispatch} observed call, JFR, a log line, a
   * {@link CallCompleted}; {@code call} notes what it learns in the {@link CallFacts} it is given
   * ({@link CallFacts#NONE} when no one observes calls).
   */
  public DispatchReceipt dispatch(
      DispatchRequest request, Mode mode, Function<CallFacts, DispatchReceipt> call) {
    return calls.dispatch(request, mode, call);
  }

  /**
   * Measures and reports one run: a {@code loopx.run} observed call, JFR, a log line, a {@link
   * CallCompleted}; {@code call} notes what it learns in the {@link CallFacts} it is given.
   */
  public RunReceipt run(ExtensionId id, Mode mode, Function<CallFacts, RunReceipt> call) {
    return calls.run(id, mode, call);
  }

  /**
   * Brackets one lifecycle command with a {@code loopx.lifecycle} observed call ({@code extension}
   * empty for doctor-all and list); without observers it only runs {@code command}.
   */
  public <R extends Receipt> R lifecycle(
      String operation, Optional<ExtensionId> extension, Mode mode, Supplier<R> command) {
    if (!observers.any()) {
      return command.get();
    }
    return observers.observe(
        ObservedCallRecord.lifecycle(operation, extension, mode),
        command,
        receipt ->
            ObservedCallRecord.lifecycle(
                operation,
                extension,
                mode,
                receipt instanceof LifecycleReceipt l ? l.revision() : Optional.<Revision>empty()),
        thrown -> ObservedCallRecord.lifecycle(operation, extension, mode, thrown));
  }

  /**
   * Brackets one doctor evaluation of an executed command ({@code operation}) of {@code id}'s
   * revision at {@code version} with a {@code loopx.doctor} observed call: {@code evaluation}
   * observes (and probes) it, {@code packet} gives the packet the ladder makes of what it observed;
   * without observers it only runs {@code evaluation}.
   */
  public <T> T doctor(
      String operation,
      ExtensionId id,
      String version,
      Supplier<T> evaluation,
      Function<T, DoctorReceipt> packet) {
    if (!observers.any()) {
      return evaluation.get();
    }
    // The packet is made inside the scope: a ladder that throws ends the call with its error.
    record Evaluated<T>(T observed, DoctorReceipt packet) {}
    return observers
        .observe(
            ObservedCallRecord.doctor(operation, id, version),
            () -> {
              T observed = evaluation.get();
              return new Evaluated<>(observed, packet.apply(observed));
            },
            e ->
                ObservedCallRecord.doctor(
                    operation, id, version, e.packet().status(), e.packet().failure()),
            thrown -> ObservedCallRecord.doctor(operation, id, version, thrown))
        .observed();
  }

  // ------------------------------------------------------------------ workers

  /**
   * Returns the hook that reports every warm worker's life: a JFR event, a log line and a {@link
   * WorkerEvent} per spawn and end ({@link WorkerLife}).
   */
  public WorkerEvents workerEvents() {
    return (id, revision) -> new WorkerLife(id, revision, log, delivery);
  }
}
