package io.loopx.benchmarks;

import io.loopx.api.json.StrictJson;
import io.loopx.registry.CapabilityRegistry;
import io.loopx.runtime.Loopx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.pf4j.PluginManager;
import tools.jackson.databind.node.ObjectNode;

/**
 * The like-for-like half of {@link DispatchBenchmark}: lookup + call of the same built-in {@code
 * bench-sum} provider with no governance on either side.
 *
 * <p>{@code loopxResolveAndCall}: {@link CapabilityRegistry#resolve} of (capability, protocol) on
 * the sealed registry generation a host holds ({@link Loopx#registry()}, taken once), then the
 * resolved in-process handler called on the parsed request. {@code peerPf4jLookupAndCall}: PF4J
 * 3.15.0 {@code getExtensions(type)} then the call, as in {@link DispatchBenchmark}. Target: faster
 * than PF4J.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BuiltinLookupBenchmark {
  private Path dir;
  private CapabilityRegistry registry;
  private PluginManager plugins;
  private ObjectNode request;

  /** Builds the registry generation and the PF4J plugin manager; checks both answer alike. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("loopx-bench-lookup");
    registry = DispatchBenchmark.host(dir).registry();
    request =
        StrictJson.parseObject(
            "{\"schema_version\":\"bench_sum_request_v0\",\"a\":2,\"b\":3}"
                .getBytes(StandardCharsets.UTF_8));
    plugins = DispatchBenchmark.startedPf4j(dir);
    if (!loopxResolveAndCall().equals(peerPf4jLookupAndCall())) {
      throw new IllegalStateException("LoopX and PF4J disagree");
    }
  }

  /** Stops PF4J and removes the temp tree. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    plugins.stopPlugins();
    LifecycleWriteBenchmark.deleteTree(dir);
  }

  /** LoopX: resolve on the sealed registry, then call the in-process handler. */
  @Benchmark
  public ObjectNode loopxResolveAndCall() {
    return registry
        .resolve(DispatchBenchmark.CAPABILITY, DispatchBenchmark.PROTOCOL)
        .orElseThrow()
        .implementation()
        .inProcess()
        .orElseThrow()
        .handle(request);
  }

  /** Peer: PF4J extension lookup by type, then the call. */
  @Benchmark
  public ObjectNode peerPf4jLookupAndCall() {
    return plugins.getExtensions(Pf4jSumPoint.class).get(0).handle(request);
  }
}
