package io.loopx.benchmarks;

import io.loopx.micrometer.LoopxMicrometer;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cost of the Micrometer observation (loopx-micrometer) on the governed built-in dispatch of
 * {@link DispatchBenchmark} ({@code bench-sum}), both measured in the same run.
 *
 * <p>{@code loopxObservedDispatch}: {@link Loopx#dispatch} in execute mode on a host built with
 * {@code observer(LoopxMicrometer.of(observationRegistry, meterRegistry))}, where the {@code
 * ObservationRegistry} has one handler, a {@link DefaultMeterObservationHandler} on a {@link
 * SimpleMeterRegistry} (what a Spring Boot application without tracing has): per call an
 * observation started with its scope open, a long task timer {@code loopx.dispatch.active}, and a
 * timer {@code loopx.dispatch} tagged with the nine low-cardinality tags.
 *
 * <p>{@code baselineUnobservedDispatch}: the same dispatch on the same kind of host without an
 * observer.
 *
 * <p>{@code baselineEmptyObserverDispatch} (for information): the same dispatch on a host whose one
 * observer does nothing ({@code call -> ended -> {}}): the runtime's own cost of observing a call
 * (its {@code ObservedCall} views), which any observer pays; the ratio to it is what Micrometer and
 * this module add.
 *
 * <p>Target: observed / unobserved ≤ 1.10 (issue 33: at most 10 % overhead).
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ObservedDispatchBenchmark {

  private Path dir;
  private Loopx plain;
  private Loopx observed;
  private Loopx emptyObserver;
  private SimpleMeterRegistry meters;
  private DispatchRequest dispatch;

  /** Builds both hosts and checks that the observed one records a timer per dispatch. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("loopx-bench-observed");
    plain = DispatchBenchmark.host(Files.createDirectory(dir.resolve("plain")));
    emptyObserver =
        Loopx.builder()
            .runtimeRoot(dir.resolve("empty").resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .builtin(new DispatchBenchmark.SumContribution())
            .domainPolicy(DomainPolicy.allowAll())
            .observer(call -> ended -> {})
            .build();
    meters = new SimpleMeterRegistry();
    ObservationRegistry observations = ObservationRegistry.create();
    observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
    observed =
        Loopx.builder()
            .runtimeRoot(dir.resolve("observed").resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .builtin(new DispatchBenchmark.SumContribution())
            .domainPolicy(DomainPolicy.allowAll())
            .observer(LoopxMicrometer.of(observations, meters))
            .build();
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", DispatchBenchmark.CAPABILITY.value());
    scope.put("operation", "sum");
    dispatch =
        DispatchRequest.builder(
                DispatchBenchmark.CAPABILITY, DispatchBenchmark.PROTOCOL, DispatchBenchmark.ACTION)
            .scope(scope)
            .permission(DispatchBenchmark.PERMISSION)
            .input(
                "{\"schema_version\":\"bench_sum_request_v0\",\"a\":2,\"b\":3}"
                    .getBytes(StandardCharsets.UTF_8))
            .build();
    for (DispatchReceipt receipt :
        new DispatchReceipt[] {
          loopxObservedDispatch(), baselineUnobservedDispatch(), baselineEmptyObserverDispatch()
        }) {
      if (!receipt.ok() || !receipt.toJson().toString().contains("\"sum\":5")) {
        throw new IllegalStateException("LoopX dispatch failed: " + receipt.toJson());
      }
    }
    Timer timer = meters.find("loopx.dispatch").tag("outcome", "succeeded").timer();
    if (timer == null || timer.count() != 1) {
      throw new IllegalStateException("the observed dispatch recorded no loopx.dispatch timer");
    }
  }

  /** Closes both hosts and removes the temp tree. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    plain.close();
    emptyObserver.close();
    observed.close();
    LifecycleWriteBenchmark.deleteTree(dir);
  }

  /** LoopX with the Micrometer observation: governed built-in dispatch, observed. */
  @Benchmark
  public DispatchReceipt loopxObservedDispatch() {
    return observed.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }

  /** Reference (information): the same dispatch with an observer that does nothing. */
  @Benchmark
  public DispatchReceipt baselineEmptyObserverDispatch() {
    return emptyObserver.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }

  /** Baseline: the same governed built-in dispatch without an observer. */
  @Benchmark
  public DispatchReceipt baselineUnobservedDispatch() {
    return plain.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }
}
