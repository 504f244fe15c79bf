package io.loopx.runtime.events;

import org.apiguardian.api.API;

/**
 * Receives the events of a {@code Loopx} ({@code Loopx.Builder.listener}). Called on the thread
 * that did the work (for worker events possibly one of LoopX's own threads); keep it short (a slow
 * listener delays that thread and the delivery of later events). A listener that throws never
 * changes the operation's result: its failure is logged once (docs/observing.md) and the other
 * listeners still get the event.
 */
@API(status = API.Status.STABLE, since = "1.0")
@FunctionalInterface
public interface LoopxListener {
  /** Receives one event. */
  void onEvent(LoopxEvent event);
}
