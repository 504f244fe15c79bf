/**
 * What a {@code Loopx} did, as immutable typed events for the host's {@link
 * io.loopx.runtime.events.LoopxListener}s (docs/observing.md): executed lifecycle transitions,
 * doctor results and progress, dispatches and runs, and refused compare-and-set writes.
 *
 * <p>Warm workers (docs/contract/worker.md) emit no events of their own yet: their spawn, retire
 * and crash events are planned (issue 18), not part of this package.
 */
@org.apiguardian.api.API(status = org.apiguardian.api.API.Status.EXPERIMENTAL, since = "0.2")
package io.loopx.runtime.events;
