package io.loopx.benchmarks;

import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.spi.Isolation;
import io.loopx.runtime.spi.LaunchResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
 * The price of kernel isolation on a one-shot call of a typical script provider
 * (docs/process.md#isolation): a {@code #!/usr/bin/python3} provider that parses its 1 KB JSON
 * request and writes it back, through {@link OsProcessLauncher} under bubblewrap ({@code setpriv}
 * first on a root host), against the same call without isolation. {@link IsolationBenchmark}
 * measures the same pair on {@code cat}, where the tool's fixed cost is the whole difference.
 * Target: at most 1.5 times.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class IsolatedPythonBenchmark {
  private static final String PROVIDER =
      "#!/usr/bin/python3\n"
          + "import json, sys\n"
          + "sys.stdout.write(json.dumps(json.load(sys.stdin)))\n";

  private Path dir;
  private Path script;
  private byte[] stdin;
  private OsProcessLauncher plain;
  private OsProcessLauncher isolated;

  /** Writes the provider and checks both paths. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = LifecycleWriteBenchmark.traversableTempDirectory("loopx-bench-isolated-python");
    script = dir.resolve("echo.py");
    Files.writeString(script, PROVIDER);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    stdin = WorkerBenchmark.request();
    plain = OsProcessLauncher.create();
    isolated = OsProcessLauncher.builder().isolation(IsolationPolicy.REQUIRED).build();
    if (isolated.isolation() != Isolation.BUBBLEWRAP) {
      throw new IllegalStateException("bubblewrap is not usable here");
    }
    check(baselinePlainPythonCall());
    check(loopxIsolatedPythonCall());
  }

  private static void check(LaunchResult result) {
    if (!result.exitedWithZero() || result.stdout().length == 0) {
      throw new IllegalStateException("the call failed: " + result);
    }
  }

  /** Removes the temp tree. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    LifecycleWriteBenchmark.deleteTree(dir);
  }

  private LaunchResult call(OsProcessLauncher launcher) {
    return IsolationBenchmark.call(launcher, script, stdin);
  }

  /** The Python provider under bubblewrap, contained like every LoopX call. */
  @Benchmark
  public LaunchResult loopxIsolatedPythonCall() {
    return call(isolated);
  }

  /** The same contained call without isolation. */
  @Benchmark
  public LaunchResult baselinePlainPythonCall() {
    return call(plain);
  }
}
