package io.loopx.benchmarks;

import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The price of kernel isolation on a warm worker (docs/process.md#isolation): the governed dispatch
 * of {@link WorkerBenchmark} (1 KB request, {@code java_main} worker on {@code ProviderMain}) on a
 * host with {@link IsolationPolicy#REQUIRED} (the worker started once under bubblewrap), against
 * the same dispatch on a host without isolation. Target: at most 1.10 times.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class IsolatedWorkerBenchmark {
  private Path dir;
  private Loopx plain;
  private Loopx isolated;
  private DispatchRequest dispatch;

  /** Writes the worker package, installs it on both hosts, checks both paths. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = LifecycleWriteBenchmark.traversableTempDirectory("loopx-bench-isolated-worker");
    Path pkg = Files.createDirectories(dir.resolve("pkg"));
    Files.setPosixFilePermissions(pkg, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(pkg.resolve("extension.toml"), WorkerBenchmark.manifest());
    plain = host(dir.resolve("plain"), IsolationPolicy.OFF);
    plain.install(
        LoadedManifest.load(pkg.resolve("extension.toml")), io.loopx.runtime.Mode.EXECUTE);
    isolated = host(dir.resolve("isolated"), IsolationPolicy.REQUIRED);
    isolated.install(
        LoadedManifest.load(pkg.resolve("extension.toml")), io.loopx.runtime.Mode.EXECUTE);
    dispatch =
        DispatchRequest.builder(
                WorkerBenchmark.CAPABILITY, WorkerBenchmark.PROTOCOL, BenchEchoProvider.ACTION)
            .scope(BenchEchoProvider.scope())
            .permission(WorkerBenchmark.PERMISSION)
            .input(WorkerBenchmark.request())
            .build();
    check(baselinePlainWarmDispatch(), false);
    check(loopxIsolatedWarmDispatch(), true);
  }

  private static Loopx host(Path root, IsolationPolicy policy) {
    return Loopx.builder()
        .runtimeRoot(root)
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .builtin(new WorkerBenchmark.EchoContract())
        .domainPolicy(DomainPolicy.allowAll())
        .isolation(policy)
        .build();
  }

  private static void check(DispatchReceipt r, boolean isolatedHost) {
    if (r.outcome().status() != RunStatus.SUCCEEDED
        || r.outcome().exitCode().isPresent()
        || r.isolation().isPresent() != isolatedHost) {
      throw new IllegalStateException("the warm dispatch failed: " + r.toJson());
    }
  }

  /** Closes both hosts and removes the temp tree. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    plain.close();
    isolated.close();
    LifecycleWriteBenchmark.deleteTree(dir);
  }

  /** A warm worker request on a host whose workers run under bubblewrap. */
  @Benchmark
  public DispatchReceipt loopxIsolatedWarmDispatch() {
    return isolated.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }

  /** The same request on a host without isolation. */
  @Benchmark
  public DispatchReceipt baselinePlainWarmDispatch() {
    return plain.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }
}
