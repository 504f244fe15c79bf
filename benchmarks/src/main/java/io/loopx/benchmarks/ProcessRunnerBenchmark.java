package io.loopx.benchmarks;

import io.loopx.runtime.internal.process.LaunchRequestBuilder;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.spi.LaunchResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
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
 * Managed run of a trivial native provider ({@code #!/bin/sh} {@code cat}) through LoopX's bounded
 * runner, against the baseline: a raw {@link ProcessBuilder} spawn + pipe of the same script.
 * Target: at most 1.15 times the baseline.
 *
 * <p>A second reference, the same raw spawn through {@code setsid -w --}, isolates the price of
 * giving the provider its own session and process group (one more {@code exec}), which LoopX pays
 * to be able to terminate the whole process tree.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ProcessRunnerBenchmark {
  private static final String SETSID = "/usr/bin/setsid";
  private Path dir;
  private Path script;
  private OsProcessLauncher launcher;
  private final byte[] request =
      "{\"schema_version\":\"bench_request_v0\",\"text\":\"hello\"}"
          .getBytes(StandardCharsets.UTF_8);

  /** Writes the script. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("loopx-bench");
    script = dir.resolve("provider");
    Files.writeString(script, "#!/bin/sh\ncat\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    launcher = OsProcessLauncher.create();
  }

  /** Removes the script. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    Files.deleteIfExists(script);
    Files.deleteIfExists(dir);
  }

  /** LoopX: own process group, concurrent capped drains, group cleanup after exit. */
  @Benchmark
  public LaunchResult loopxRunner() {
    LaunchResult result =
        launcher.launch(
            LaunchRequestBuilder.of(List.of(script.toString()))
                .stdin(request)
                .timeout(Duration.ofSeconds(10))
                .build());
    if (!result.exitedWithZero()) {
      throw new IllegalStateException(result.toString());
    }
    return result;
  }

  /** Baseline: spawn, write stdin, read stdout, wait. */
  @Benchmark
  public byte[] baselineProcessBuilder() throws IOException, InterruptedException {
    return spawn(script.toString());
  }

  /** Reference: the baseline, with the script started through {@code setsid -w --}. */
  @Benchmark
  public byte[] baselineProcessBuilderSetsid() throws IOException, InterruptedException {
    return spawn(SETSID, "-w", "--", script.toString());
  }

  private byte[] spawn(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(request);
    }
    byte[] out;
    try (InputStream stdout = p.getInputStream()) {
      out = stdout.readAllBytes();
    }
    p.getErrorStream().close();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("exit " + p.exitValue());
    }
    return out;
  }
}
