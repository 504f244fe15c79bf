package io.loopx.benchmarks;

import io.loopx.api.CapabilityId;
import io.loopx.api.KindToken;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunStatus;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Warm provider workers (docs/contract/worker.md) against a one-shot start and a raw pipe, with the
 * same {@code java_main} provider ({@link BenchEchoProvider}, on {@code ProviderMain}) and the same
 * 1 KB request.
 *
 * <p>{@code loopxWarmWorkerDispatch}: {@link Loopx#dispatch(DispatchRequest,
 * io.loopx.runtime.Mode)} in execute mode through the implemented capability {@code bench-echo}:
 * the governed path (resolution, permission contract, domain policy, envelope binding, the
 * execute-time check, the file comparison after the response, the receipt), answered by a warm
 * worker that verifies the envelope. The manifest sets {@code max_requests = 1000000} so that the
 * measurement does not include recycling (the default, 1,000, restarts the worker once per 1,000
 * calls).
 *
 * <p>{@code baselineOneShotDispatch}: the same dispatch through a closed {@code Loopx} (which runs
 * every provider one-shot): a child JVM per call.
 *
 * <p>{@code baselineRawPipeRoundTrip}: the 1 KB request written as one line to an already running
 * Java process ({@link PipeEcho}) that parses it with Jackson and writes it back re-serialised;
 * read back to the line feed. No frame, envelope or governance.
 *
 * <p>Targets: warm at least 100 times faster than one-shot; warm at most 3 times the raw pipe.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class WorkerBenchmark {
  static final CapabilityId CAPABILITY = CapabilityId.of("bench-echo");
  static final ProtocolId PROTOCOL = ProtocolId.of("bench_echo_v0");
  static final Permission PERMISSION = Permission.of("bench.read");

  private Path dir;
  private Loopx warm;
  private Loopx oneShot;
  private DispatchRequest dispatch;
  private byte[] request;
  private Process echo;
  private OutputStream echoIn;
  private InputStream echoOut;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  /** The host's catalog: the capability contract {@code bench-echo}, no built-in implementation. */
  static final class EchoContract implements BuiltinContribution {
    @Override
    public String id() {
      return "bench-echo-contract";
    }

    @Override
    public void register(RegistrationContext context) {
      context.addCapability(
          new ProvidedCapability(
              CAPABILITY,
              KindToken.of("echo_contract"),
              "Echo",
              "available",
              Visibility.PUBLIC,
              "Echoes a request.",
              "Install an implementation.",
              Optional.of("a benchmark"),
              Optional.of("loopx bench echo"),
              Map.of()));
    }
  }

  /** The request: 20 items of about 40 bytes, 1 KB in all. */
  static byte[] request() {
    StringBuilder s =
        new StringBuilder("{\"schema_version\":\"bench_echo_request_v0\",\"items\":[");
    for (int i = 0; i < 20; i++) {
      s.append(i == 0 ? "" : ",")
          .append("{\"ref\":\"pref-")
          .append(String.format("%03d", i))
          .append("\",\"summary\":\"Green tea at 7.\"}");
    }
    s.append("],\"note\":\"").append("x".repeat(1024 - s.length() - 2)).append("\"}");
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  static Loopx host(Path dir) {
    return Loopx.builder()
        .runtimeRoot(dir.resolve("root"))
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .builtin(new EchoContract())
        .domainPolicy(DomainPolicy.allowAll())
        .build();
  }

  /**
   * The provider's manifest: a {@code java_main} warm worker that recycles only after 1,000,000.
   */
  static String manifest() {
    return """
        schema_version = "loopx_extension_manifest_v0"
        id = "bench-echo-worker"
        version = "1.0.0"
        requires_loopx_api = ">=1,<2"
        permissions = ["bench.read"]

        [runtime]
        protocol = "bench_echo_v0"
        java_main = "io.loopx.benchmarks.BenchEchoProvider"
        doctor_args = ["--doctor"]
        required_permissions = ["bench.read"]
        timeout_seconds = 30

        [runtime.worker]
        max_requests = 1000000
        idle_seconds = 3600

        [[implements]]
        capability_id = "bench-echo"
        protocol = "bench_echo_v0"
        """;
  }

  /** Installs the provider, starts the echo process, and checks that every path answers. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("loopx-bench-worker");
    Path pkg = Files.createDirectories(dir.resolve("pkg"));
    Files.writeString(pkg.resolve("extension.toml"), manifest());
    warm = host(dir);
    warm.install(LoadedManifest.load(pkg.resolve("extension.toml")), io.loopx.runtime.Mode.EXECUTE);
    oneShot = host(dir);
    oneShot.close(); // closed before its first call: every provider runs one-shot
    request = request();
    dispatch =
        DispatchRequest.builder(CAPABILITY, PROTOCOL, BenchEchoProvider.ACTION)
            .scope(BenchEchoProvider.scope())
            .permission(PERMISSION)
            .input(request)
            .build();
    if (request.length != 1024) {
      throw new IllegalStateException("the request is " + request.length + " bytes, not 1024");
    }
    check(loopxWarmWorkerDispatch(), true);
    check(baselineOneShotDispatch(), false);

    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    echo =
        new ProcessBuilder(
                java, "-cp", System.getProperty("java.class.path"), PipeEcho.class.getName())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    echoIn = echo.getOutputStream();
    echoOut = new BufferedInputStream(echo.getInputStream(), 65_536);
    byte[] back = baselineRawPipeRoundTrip();
    if (back.length < 1000) {
      throw new IllegalStateException("the echo answered " + back.length + " bytes");
    }
  }

  private static void check(DispatchReceipt r, boolean byWorker) {
    if (r.outcome().status() != RunStatus.SUCCEEDED
        || r.outcome().exitCode().isEmpty() != byWorker) {
      throw new IllegalStateException(
          (byWorker ? "the warm" : "the one-shot") + " dispatch failed: " + r.toJson());
    }
  }

  /** Closes the warm facade (no worker left), ends the echo process, removes the temp tree. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException, InterruptedException {
    warm.close();
    echoIn.close();
    if (!echo.waitFor(10, TimeUnit.SECONDS)) {
      echo.destroyForcibly();
    }
    LifecycleWriteBenchmark.deleteTree(dir);
  }

  /** LoopX: governed dispatch answered by a warm worker. */
  @Benchmark
  public DispatchReceipt loopxWarmWorkerDispatch() {
    return warm.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }

  /** LoopX: the same governed dispatch, one-shot (a child JVM per call). */
  @Benchmark
  public DispatchReceipt baselineOneShotDispatch() {
    return oneShot.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }

  /** Reference: a line round trip to a running Java process that re-serialises it. */
  @Benchmark
  public byte[] baselineRawPipeRoundTrip() throws IOException {
    echoIn.write(request);
    echoIn.write('\n');
    echoIn.flush();
    line.reset();
    int b;
    while ((b = echoOut.read()) != '\n') {
      if (b < 0) {
        throw new IOException("the echo process ended");
      }
      line.write(b);
    }
    return line.toByteArray();
  }
}
