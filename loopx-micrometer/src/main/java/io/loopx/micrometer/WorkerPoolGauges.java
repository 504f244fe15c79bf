package io.loopx.micrometer;

import io.loopx.runtime.WorkerPoolSnapshot;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.jspecify.annotations.Nullable;

/**
 * The worker-pool gauges of one {@code Loopx}, per extension (the sum over its pools: one per
 * revision that has workers): {@code loopx.workers.processes}, {@code
 * loopx.workers.requests.in.flight} and {@code loopx.workers.requests.queued}, tag {@code
 * extension}. Pools come and go, so an extension's three gauges are registered the first time its
 * pool is seen: when the binder is bound (the pools then alive) and when a dispatch or run served
 * by a worker of that extension ends ({@link #served}); they stay registered and read 0 once the
 * extension has no pool (its workers retired, or the {@code Loopx} closed). Each read takes a fresh
 * snapshot.
 */
final class WorkerPoolGauges implements MeterBinder {

  private final Supplier<? extends Collection<? extends WorkerPoolSnapshot>> pools;
  private final Set<String> registered = ConcurrentHashMap.newKeySet();
  private volatile @Nullable MeterRegistry registry;

  WorkerPoolGauges(Supplier<? extends Collection<? extends WorkerPoolSnapshot>> pools) {
    this.pools = pools;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
    for (WorkerPoolSnapshot pool : pools.get()) {
      served(pool.extensionId().value());
    }
  }

  /** Registers the gauges of {@code extension} unless they are (or nothing is bound yet). */
  void served(String extension) {
    MeterRegistry meters = registry;
    if (meters == null || extension.equals("none") || !registered.add(extension)) {
      return;
    }
    gauge(
        meters,
        LoopxMicrometer.WORKERS_PROCESSES,
        extension,
        WorkerPoolSnapshot::processes,
        "Worker processes alive or starting");
    gauge(
        meters,
        LoopxMicrometer.WORKERS_IN_FLIGHT,
        extension,
        WorkerPoolSnapshot::inFlight,
        "Requests written to a worker and not yet answered");
    gauge(
        meters,
        LoopxMicrometer.WORKERS_QUEUED,
        extension,
        WorkerPoolSnapshot::queued,
        "Requests waiting for a worker slot or a worker's start");
  }

  private void gauge(
      MeterRegistry meters,
      String name,
      String extension,
      ToIntFunction<WorkerPoolSnapshot> count,
      String description) {
    Gauge.builder(name, this, g -> g.sum(extension, count))
        .strongReference(true)
        .tag("extension", extension)
        .description(description)
        .register(meters);
  }

  private double sum(String extension, ToIntFunction<WorkerPoolSnapshot> count) {
    int total = 0;
    for (WorkerPoolSnapshot pool : pools.get()) {
      if (pool.extensionId().value().equals(extension)) {
        total += count.applyAsInt(pool);
      }
    }
    return total;
  }
}
