package io.loopx.runtime;

import static io.loopx.runtime.WorkerFixture.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.TraceContext;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunStatus;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The calling thread's trace context reaches the provider (docs/contract/run.md#trace-context,
 * docs/contract/worker.md#trace-context), with real processes: a shell one-shot provider and doctor
 * probe read {@code TRACEPARENT} / {@code TRACESTATE}; a Python worker on the kit gets each
 * request's own context in its frame; a worker of today's handshake (which refuses unknown frame
 * keys) never gets one; the host's own {@code TRACEPARENT} is never inherited; the envelope's
 * digest does not change with the trace.
 */
class TraceContextPropagationTest {
  private static final String TP1 = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  private static final String TP2 = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";
  private static final String HOST_TP = "00-11111111111111111111111111111111-2222222222222222-01";
  private static final Map<String, String> HOST_ENV =
      Map.of("PATH", "/usr/bin:/bin", "TRACEPARENT", HOST_TP, "TRACESTATE", "host=1");

  @TempDir Path tmp;
  private final List<Loopx> opened = new ArrayList<>();
  private volatile Supplier<Optional<TraceContext>> current = Optional::empty;
  private final AtomicInteger reads = new AtomicInteger();
  private final CapturingLogger logger = new CapturingLogger();

  @AfterEach
  void closeAll() {
    opened.forEach(Loopx::close);
  }

  private Loopx loopx(ProviderEnvironment environment) {
    Loopx loopx =
        Loopx.builder()
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(HOST_ENV)
            .providerEnvironment(environment)
            .domainPolicy(DomainPolicy.allowAll())
            .builtin(new DispatchTest.Contract())
            .logger(logger)
            .traceContext(
                () -> {
                  reads.incrementAndGet();
                  return current.get();
                })
            .build();
    opened.add(loopx);
    return loopx;
  }

  private Loopx loopx() {
    return loopx(ProviderEnvironment.inheritAll());
  }

  private void context(Optional<TraceContext> context) {
    current = () -> context;
  }

  private static DispatchReceipt dispatch(Loopx loopx) {
    return loopx.dispatch(DispatchTest.request().input(DispatchTest.REQUEST).build(), Mode.EXECUTE);
  }

  private static void executable(Path script, String text) throws IOException {
    Files.createDirectories(script.getParent());
    Files.writeString(script, text);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static void manifest(Path dir, String id, String entrypoint, String workerTable)
      throws IOException {
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \""
            + id
            + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + "permissions = [\"demo.read\"]\n"
            + "[runtime]\nprotocol = \"demo_recall_v0\"\nentrypoint = \""
            + entrypoint
            + "\"\ndoctor_args = [\"--doctor\"]\nrequired_permissions = [\"demo.read\"]\n"
            + "timeout_seconds = 20\n"
            + workerTable
            + "\n[[implements]]\ncapability_id = \"demo-recall\"\nprotocol = \"demo_recall_v0\"\n");
  }

  /** A shell one-shot provider: reports its trace variables; its doctor notes them in a file. */
  private Path shellProvider() throws IOException {
    Path dir = tmp.resolve("traced-sh");
    executable(
        dir.resolve("bin/provider"),
        """
        #!/bin/sh
        d="$(dirname "$0")/.."
        if [ "$1" = "--doctor" ]; then
          printf '%s|%s' "${TRACEPARENT-unset}" "${TRACESTATE-unset}" > "$d/doctor-trace"
          exit 0
        fi
        cat > "$d/stdin.json"
        printf '{"ok":true,"traceparent":"%s","tracestate":"%s"}\\n' \\
          "${TRACEPARENT-unset}" "${TRACESTATE-unset}"
        """);
    manifest(dir, "traced-sh", "bin/provider", "");
    return dir;
  }

  /** A Python worker on the kit: reports the context the kit gives its handler per request. */
  private Path kitWorker() throws IOException {
    return kitWorker("[runtime.worker]\n");
  }

  private Path kitWorker(String workerTable) throws IOException {
    Path dir = tmp.resolve("traced-kit");
    Files.createDirectories(dir.resolve("bin"));
    Files.copy(
        Path.of("..", "kits", "python", "loopx_provider.py"), dir.resolve("bin/loopx_provider.py"));
    executable(
        dir.resolve("bin/provider.py"),
        """
        #!/usr/bin/python3
        import os, sys
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import loopx_provider as k

        def handle(request):
            t = k.current_trace_context()
            envelope = request.get("execution_envelope", {})
            return {"ok": True, "pid": os.getpid(),
                    "trace_id": t.trace_id if t else None,
                    "traceparent": t.traceparent if t else None,
                    "tracestate": t.tracestate if t else None,
                    "env_traceparent": os.environ.get("TRACEPARENT"),
                    "request_digest": envelope.get("request_digest")}

        k.run(handle, response_schema_version="demo_recall_response_v0")
        """);
    manifest(dir, "traced-kit", "bin/provider.py", workerTable);
    return dir;
  }

  private static void install(Loopx loopx, Path dir) {
    loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);
  }

  private static String requestDigest(Path dir) throws IOException {
    ObjectNode stdin = StrictJson.parseObject(Files.readAllBytes(dir.resolve("stdin.json")));
    return stdin.get("execution_envelope").get("request_digest").stringValue();
  }

  @Test
  void aOneShotProviderGetsTheCallersContextInItsEnvironmentAndNeverTheHosts() throws IOException {
    Path dir = shellProvider();
    Loopx loopx = loopx();
    context(Optional.of(TraceContext.of(TP2)));
    install(loopx, dir);
    // The doctor probe of the install got the context of the thread that installed.
    assertThat(Files.readString(dir.resolve("doctor-trace"))).isEqualTo(TP2 + "|unset");

    context(Optional.of(new TraceContext(TP1, "vendor=abc,other=1")));
    DispatchReceipt traced = dispatch(loopx);
    assertThat(traced.ok()).as(traced.toString()).isTrue();
    assertThat(result(traced).get("traceparent").stringValue()).isEqualTo(TP1);
    assertThat(result(traced).get("tracestate").stringValue()).isEqualTo("vendor=abc,other=1");
    String tracedDigest = requestDigest(dir);

    context(Optional.empty());
    DispatchReceipt plain = dispatch(loopx);
    assertThat(plain.ok()).as(plain.toString()).isTrue();
    // The host's own TRACEPARENT / TRACESTATE are never inherited.
    assertThat(result(plain).get("traceparent").stringValue()).isEqualTo("unset");
    assertThat(result(plain).get("tracestate").stringValue()).isEqualTo("unset");
    // The trace is outside the bound request: the same request, the same digest.
    assertThat(requestDigest(dir)).isEqualTo(tracedDigest);
  }

  @Test
  void theHostsTraceVariablesAreStrippedWhateverTheEnvironmentPolicy() throws IOException {
    Path dir = shellProvider();
    Loopx loopx = loopx(ProviderEnvironment.allowList("TRACEPARENT", "TRACESTATE"));
    install(loopx, dir);
    assertThat(Files.readString(dir.resolve("doctor-trace"))).isEqualTo("unset|unset");
    DispatchReceipt receipt = dispatch(loopx);
    assertThat(result(receipt).get("traceparent").stringValue()).isEqualTo("unset");
    assertThat(result(receipt).get("tracestate").stringValue()).isEqualTo("unset");
  }

  @Test
  void aSourceThatThrowsOrReturnsNullCountsAsNoneAndIsLoggedOnce() throws IOException {
    Path dir = shellProvider();
    Loopx loopx = loopx();
    current =
        () -> {
          throw new IllegalStateException("no tracer");
        };
    install(loopx, dir);
    assertThat(Files.readString(dir.resolve("doctor-trace"))).isEqualTo("unset|unset");
    for (int i = 0; i < 2; i++) {
      DispatchReceipt receipt = dispatch(loopx);
      assertThat(receipt.ok()).as(receipt.toString()).isTrue();
      assertThat(result(receipt).get("traceparent").stringValue()).isEqualTo("unset");
    }
    current = () -> null;
    DispatchReceipt afterNull = dispatch(loopx);
    assertThat(afterNull.ok()).isTrue();
    assertThat(result(afterNull).get("traceparent").stringValue()).isEqualTo("unset");
    assertThat(reads.get()).isEqualTo(4); // the probe and three calls each read it once
    List<String> warnings = logger.at(Level.WARNING);
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0)).contains("trace context source").contains("threw");
  }

  @Test
  void aKitWorkerGetsEachRequestsOwnContextInItsFrame() throws IOException {
    Path dir = kitWorker();
    Loopx loopx = loopx();
    install(loopx, dir);

    context(Optional.of(TraceContext.of(TP1)));
    DispatchReceipt first = dispatch(loopx);
    assertThat(first.ok()).as(first.toString()).isTrue();
    context(Optional.of(new TraceContext(TP2, "k=v")));
    DispatchReceipt second = dispatch(loopx);
    context(Optional.empty());
    DispatchReceipt third = dispatch(loopx);

    // One warm process answered all three.
    long pid = result(first).get("pid").longValue();
    assertThat(result(second).get("pid").longValue()).isEqualTo(pid);
    assertThat(result(third).get("pid").longValue()).isEqualTo(pid);
    assertThat(first.outcome().exitCode()).isEmpty(); // a worker's answer, not a process exit

    assertThat(result(first).get("trace_id").stringValue())
        .isEqualTo(TraceContext.of(TP1).traceId());
    assertThat(result(first).get("traceparent").stringValue()).isEqualTo(TP1);
    assertThat(result(first).get("tracestate").stringValue()).isEmpty();
    assertThat(result(second).get("trace_id").stringValue())
        .isEqualTo(TraceContext.of(TP2).traceId());
    assertThat(result(second).get("tracestate").stringValue()).isEqualTo("k=v");
    assertThat(result(third).get("trace_id").isNull()).isTrue();
    // The worker's start environment never has the host's (or any call's) TRACEPARENT.
    assertThat(result(first).get("env_traceparent").isNull()).isTrue();
    // The trace is outside the bound request: the digest is the same with and without one.
    assertThat(result(first).get("request_digest").stringValue())
        .isEqualTo(result(third).get("request_digest").stringValue())
        .startsWith("sha256:");
  }

  @Test
  void concurrentCallersOfOneWorkerEachGetTheirOwnThreadsContext() throws Exception {
    Path dir = kitWorker("[runtime.worker]\nmax_in_flight = 4\nmax_processes = 1\n");
    Loopx loopx = loopx();
    install(loopx, dir);
    // The source answers the context of the thread that reads it: read on a writer thread, it
    // would give none.
    ThreadLocal<Optional<TraceContext>> perThread = ThreadLocal.withInitial(Optional::empty);
    current = perThread::get;
    int callers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      List<Future<String[]>> answers = new ArrayList<>();
      CountDownLatch start = new CountDownLatch(1);
      for (int i = 0; i < callers; i++) {
        String traceId = String.format("%032x", 0xabc0L + i);
        TraceContext mine = TraceContext.of("00-" + traceId + "-00f067aa0ba902b7-01");
        answers.add(
            pool.submit(
                () -> {
                  perThread.set(Optional.of(mine));
                  start.await();
                  ObjectNode r = result(dispatch(loopx));
                  return new String[] {
                    traceId, r.get("trace_id").stringValue(), r.get("pid").asString()
                  };
                }));
      }
      start.countDown();
      Set<String> pids = new HashSet<>();
      for (Future<String[]> f : answers) {
        String[] a = f.get(60, TimeUnit.SECONDS);
        assertThat(a[1]).as("the trace id the worker got").isEqualTo(a[0]);
        pids.add(a[2]);
      }
      assertThat(pids).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aWorkerWithoutTheFeatureNeverGetsATraceKey() throws IOException {
    Path dir = tmp.resolve("warm");
    WorkerFixture.write(dir, "1.0.0", 20, "[runtime.worker]\n");
    Loopx loopx = loopx();
    install(loopx, dir);
    context(Optional.of(TraceContext.of(TP1)));
    // worker.py announces no features and exits on a frame key it does not know.
    for (int i = 0; i < 2; i++) {
      DispatchReceipt receipt =
          loopx.dispatch(
              DispatchTest.request().input(WorkerFixture.request("t" + i, "")).build(),
              Mode.EXECUTE);
      assertThat(receipt.ok()).as(receipt.toString()).isTrue();
      assertThat(result(receipt).get("served").intValue()).isEqualTo(i + 1);
      assertThat(result(receipt).get("env_traceparent").isNull()).isTrue();
    }
    // One-shot, the same provider gets it in its environment.
    DispatchReceipt oneShot =
        loopx.dispatch(
            DispatchTest.request().input(WorkerFixture.request("o", "")).oneShot().build(),
            Mode.EXECUTE);
    assertThat(result(oneShot).get("one_shot").booleanValue()).isTrue();
    assertThat(result(oneShot).get("traceparent").stringValue()).isEqualTo(TP1);
  }

  @Test
  void aMalformedFeaturesValueIsAFailedHandshake() throws IOException {
    Path dir = tmp.resolve("warm");
    WorkerFixture.write(dir, "1.0.0", 5, "[runtime.worker]\n");
    Loopx loopx = loopx();
    install(loopx, dir);
    WorkerFixture.mode(dir, "bad-features");
    DispatchReceipt receipt =
        loopx.dispatch(
            DispatchTest.request().input(WorkerFixture.request("a", "")).build(), Mode.EXECUTE);
    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.PROVIDER_FAILED);
    assertThat(receipt.outcome().failure()).contains(RunFailure.WORKER_HANDSHAKE_FAILED);
  }
}
