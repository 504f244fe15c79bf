package io.loopx.runtime.internal.observe;

import io.loopx.runtime.events.LoopxEvent;
import io.loopx.runtime.events.LoopxListener;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The ordered delivery of an {@link Observer}'s events to its listeners: every batch takes a
 * ticket, and batches are delivered in ticket order, each on the thread that produced it. Events of
 * a write made by a listener (on the delivering thread) are delivered by that thread once the
 * current event is done, still in ticket order. A listener that throws is logged once and otherwise
 * ignored. Without listeners nothing is sequenced.
 */
final class EventDelivery {
  private final List<LoopxListener> listeners;
  private final System.Logger log;
  private final AtomicLong tickets = new AtomicLong();
  private final ReentrantLock turnLock = new ReentrantLock();
  private final Condition turn = turnLock.newCondition();
  private long nowServing; // guarded by turnLock
  private final ThreadLocal<Deque<Batch>> nested = ThreadLocal.withInitial(ArrayDeque::new);
  private final ThreadLocal<Boolean> delivering = ThreadLocal.withInitial(() -> false);
  private final Set<LoopxListener> reported = ConcurrentHashMap.newKeySet();

  private record Batch(long ticket, List<LoopxEvent> events) {}

  EventDelivery(List<LoopxListener> listeners, System.Logger log) {
    this.listeners = List.copyOf(listeners);
    this.log = log;
  }

  /** Whether events are sequenced and delivered at all: whether there are listeners. */
  boolean sequenced() {
    return !listeners.isEmpty();
  }

  /** Takes the next ticket, or -1 without listeners. */
  long ticket() {
    return sequenced() ? tickets.getAndIncrement() : -1;
  }

  /** Delivers events that report no write, in the next turn; nothing without listeners. */
  void publish(List<LoopxEvent> events) {
    if (listeners.isEmpty() || events.isEmpty()) {
      return;
    }
    deliver(tickets.getAndIncrement(), events);
  }

  /**
   * Delivers {@code events} in the turn of {@code ticket}, on this thread, to every listener; a
   * negative ticket (no listeners) delivers nothing. Every ticket taken must be delivered, even
   * with no events: a ticket never delivered would stall every later one.
   */
  void deliver(long ticket, List<LoopxEvent> events) {
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

  /** Returns the simple name of the public event interface {@code event} implements. */
  static String name(LoopxEvent event) {
    for (Class<?> i : event.getClass().getInterfaces()) {
      if (LoopxEvent.class.isAssignableFrom(i)) {
        return i.getSimpleName();
      }
    }
    return event.getClass().getSimpleName();
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
                  + name(event)
                  + "; its later failures are not logged",
              e);
        }
      }
    }
  }
}
