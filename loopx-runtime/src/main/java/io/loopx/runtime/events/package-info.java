/**
 * What a {@code Loopx} did, as immutable typed events for the host's {@link
 * io.loopx.runtime.events.LoopxListener}s (docs/observing.md): executed lifecycle transitions,
 * doctor results and progress, dispatches and runs, refused compare-and-set writes, and the spawn,
 * retirement and crash of warm workers (docs/contract/worker.md).
 */
@org.apiguardian.api.API(status = org.apiguardian.api.API.Status.EXPERIMENTAL, since = "0.2")
package io.loopx.runtime.events;
