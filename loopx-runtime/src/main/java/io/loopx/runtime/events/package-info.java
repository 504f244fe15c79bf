/**
 * What a {@code Loopx} did, as immutable typed events for the host's {@link
 * io.loopx.runtime.events.LoopxListener}s (docs/observing.md): executed lifecycle transitions,
 * doctor results and progress, completed runs and dispatches, refused compare-and-set writes, and
 * the spawn, retirement and crash of warm workers (docs/contract/worker.md).
 */
@org.apiguardian.api.API(status = org.apiguardian.api.API.Status.STABLE, since = "1.0")
package io.loopx.runtime.events;
