package io.loopx.benchmarks;

import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.internal.isolation.Bubblewrap;
import io.loopx.runtime.internal.isolation.IsolationPlan;
import io.loopx.runtime.internal.process.LaunchRequestBuilder;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.spi.Isolation;
import io.loopx.runtime.spi.LaunchResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * The price of kernel isolation on a one-shot call (docs/process.md#isolation): one contained call
 * of a {@code #!/bin/sh} {@code cat} provider with a 1 KB stdin through {@link OsProcessLauncher}
 * under bubblewrap ({@code setpriv} first when the host runs as root), against the same call
 * without isolation (target: at most 1.5 times) and, for information, against a bare {@link
 * ProcessBuilder} running the same bubblewrap command line (what the tool itself costs, without
 * LoopX's containment). The warm-worker pair is {@link IsolatedWorkerBenchmark}.
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
  private List<String> bareCommand;

  /** Writes the script, checks every path. */
  @Setup(Level.Trial)
  public void setUp() throws IOException, InterruptedException {
    dir = LifecycleWriteBenchmark.traversableTempDirectory("loopx-bench-isolation");
    script = dir.resolve("cat.sh");
    Files.writeString(script, "#!/bin/sh\nexec cat\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    stdin = WorkerBenchmark.request();
    plain = OsProcessLauncher.create();
    isolated = OsProcessLauncher.builder().isolation(IsolationPolicy.REQUIRED).build();
    if (isolated.isolation() != Isolation.BUBBLEWRAP) {
      throw new IllegalStateException("bubblewrap is not usable here");
    }
    checkCall(baselinePlainCall());
    checkCall(loopxIsolatedCall());
    Bubblewrap tool = isolated.isolator().orElseThrow();
    bareCommand = new ArrayList<>(tool.prefix(IsolationPlan.NONE_DECLARED, List.of(dir)));
    bareCommand.add(script.toString());
    baselineBareBubblewrap();
  }

  private void checkCall(LaunchResult result) {
    if (!result.exitedWithZero() || result.stdout().length != stdin.length) {
      throw new IllegalStateException("the call failed: " + result);
    }
  }

  /** Removes the temp tree. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    LifecycleWriteBenchmark.deleteTree(dir);
  }

  private LaunchResult call(OsProcessLauncher launcher) {
    return call(launcher, script, stdin);
  }

  /** One contained call of {@code script} with {@code stdin}, through {@code launcher}. */
  static LaunchResult call(OsProcessLauncher launcher, Path script, byte[] stdin) {
    return launcher.launch(
        LaunchRequestBuilder.of(List.of(script.toString()))
            .environment(Map.of("PATH", "/usr/bin:/bin"))
            .stdin(stdin)
            .timeout(Duration.ofSeconds(30))
            .build());
  }

  /** The call under bubblewrap, contained like every LoopX call. */
  @Benchmark
  public LaunchResult loopxIsolatedCall() {
    return call(isolated);
  }

  /** The same contained call without isolation. */
  @Benchmark
  public LaunchResult baselinePlainCall() {
    return call(plain);
  }

  /** Reference: the same bubblewrap command line from a bare {@link ProcessBuilder}. */
  @Benchmark
  public byte[] baselineBareBubblewrap() throws IOException, InterruptedException {
    Process p = new ProcessBuilder(bareCommand).start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(stdin);
    }
    byte[] out;
    try (InputStream stdout = p.getInputStream()) {
      out = stdout.readAllBytes();
    }
    p.getErrorStream().close();
    if (p.waitFor() != 0 || out.length != stdin.length) {
      throw new IllegalStateException("exit " + p.exitValue() + ", " + out.length + " bytes");
    }
    return out;
  }
}
