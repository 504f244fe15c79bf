package io.loopx.benchmarks;

import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.internal.process.LaunchRequestBuilder;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunStatus;
import io.loopx.runtime.spi.Isolation;
import io.loopx.runtime.spi.LaunchResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * The price of kernel isolation (docs/process.md#isolation), each LoopX path with and without it in
 * the same run.
 *
 * <p>{@code oneShotCall} / {@code oneShotCallIsolated}: one contained call of a {@code #!/bin/sh}
 * {@code cat} provider with a 1 KB stdin through {@link OsProcessLauncher}, without isolation and
 * under bubblewrap ({@code setpriv} first when the host runs as root). Target: isolated at most 1.5
 * times the plain call.
 *
 * <p>{@code warmWorkerDispatch} / {@code warmWorkerDispatchIsolated}: the governed dispatch of
 * {@link WorkerBenchmark} (1 KB request, {@code java_main} worker on {@code ProviderMain}) on a
 * warm worker, on a host without isolation and on one with {@link IsolationPolicy#REQUIRED} (the
 * worker started once under bubblewrap). Target: isolated at most 1.10 times the plain request.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class IsolationBenchmark {
  private Path dir;
  private Path script;
  private byte[] stdin;
  private OsProcessLauncher plain;
  private OsProcessLauncher isolated;
  private Loopx warm;
  private Loopx warmIsolated;
  private DispatchRequest dispatch;

  /** Writes the script and the worker package, installs it on both hosts, checks every path. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("loopx-bench-isolation");
    // World-readable: an isolated provider of a root host runs as an unprivileged uid.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    script = dir.resolve("cat.sh");
    Files.writeString(script, "#!/bin/sh\nexec cat\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    stdin = WorkerBenchmark.request();
    plain = OsProcessLauncher.create();
    isolated = OsProcessLauncher.builder().isolation(IsolationPolicy.REQUIRED).build();
    if (isolated.isolation() != Isolation.BUBBLEWRAP) {
      throw new IllegalStateException("bubblewrap is not usable here");
    }
    checkCall(oneShotCall());
    checkCall(oneShotCallIsolated());

    Path pkg = Files.createDirectories(dir.resolve("pkg"));
    Files.setPosixFilePermissions(pkg, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(pkg.resolve("extension.toml"), WorkerBenchmark.manifest());
    warm = host(dir.resolve("plain"), IsolationPolicy.OFF);
    warm.install(LoadedManifest.load(pkg.resolve("extension.toml")), io.loopx.runtime.Mode.EXECUTE);
    warmIsolated = host(dir.resolve("isolated"), IsolationPolicy.REQUIRED);
    warmIsolated.install(
        LoadedManifest.load(pkg.resolve("extension.toml")), io.loopx.runtime.Mode.EXECUTE);
    dispatch =
        DispatchRequest.builder(
                WorkerBenchmark.CAPABILITY, WorkerBenchmark.PROTOCOL, BenchEchoProvider.ACTION)
            .scope(BenchEchoProvider.scope())
            .permission(WorkerBenchmark.PERMISSION)
            .input(stdin)
            .build();
    checkWarm(warmWorkerDispatch(), false);
    checkWarm(warmWorkerDispatchIsolated(), true);
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

  private void checkCall(LaunchResult result) {
    if (!result.exitedWithZero() || result.stdout().length != stdin.length) {
      throw new IllegalStateException("the call failed: " + result);
    }
  }

  private static void checkWarm(DispatchReceipt r, boolean isolatedHost) {
    if (r.outcome().status() != RunStatus.SUCCEEDED
        || r.outcome().exitCode().isPresent()
        || r.isolation().isPresent() != isolatedHost) {
      throw new IllegalStateException("the warm dispatch failed: " + r.toJson());
    }
  }

  /** Closes both hosts and removes the temp tree. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    warm.close();
    warmIsolated.close();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private LaunchResult call(OsProcessLauncher launcher) {
    return launcher.launch(
        LaunchRequestBuilder.of(List.of(script.toString()))
            .environment(Map.of("PATH", "/usr/bin:/bin"))
            .stdin(stdin)
            .timeout(Duration.ofSeconds(30))
            .build());
  }

  /** One contained call without isolation. */
  @Benchmark
  public LaunchResult oneShotCall() {
    return call(plain);
  }

  /** The same call under bubblewrap. */
  @Benchmark
  public LaunchResult oneShotCallIsolated() {
    return call(isolated);
  }

  /** A warm worker request on a host without isolation. */
  @Benchmark
  public DispatchReceipt warmWorkerDispatch() {
    return warm.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }

  /** A warm worker request on a host whose workers run under bubblewrap. */
  @Benchmark
  public DispatchReceipt warmWorkerDispatchIsolated() {
    return warmIsolated.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }
}
