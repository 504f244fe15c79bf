package io.loopx.runtime;

import static io.loopx.runtime.WorkerFixture.awaitSeen;
import static io.loopx.runtime.WorkerFixture.eventually;
import static io.loopx.runtime.WorkerFixture.pid;
import static io.loopx.runtime.WorkerFixture.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loopx.api.InvalidValueException;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.events.LoopxEvent;
import io.loopx.runtime.events.WorkerEvent;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory limit of providers (docs/contract/run.md#memory-limit) with the real standard-library
 * Python provider of {@link WorkerFixture} allocating and touching memory: one-shot and as a warm
 * worker, past and under a manifest's {@code memory_mb = 256}, the host default and the builder's
 * override, and {@code memory_limit_bytes} in dispatch receipts and doctor packets. The process
 * tests are skipped where no memory cgroup is writable.
 */
class MemoryLimitTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);
  private static final long MB_256 = 268_435_456L;

  @TempDir Path tmp;
  private Path dir;
  private final List<Loopx> opened = new ArrayList<>();
  private final List<LoopxEvent> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() {
    dir = tmp.resolve("warm");
  }

  @AfterEach
  void closeAll() {
    opened.forEach(Loopx::close);
  }

  private Loopx installed(String runtimeLines, Loopx.Builder builder) throws IOException {
    assumeTrue(OsProcessLauncher.create().limitsMemory(), "no writable memory cgroup here");
    WorkerFixture.write(dir, "1.0.0", 60, runtimeLines);
    Loopx loopx =
        builder
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .domainPolicy(DomainPolicy.allowAll())
            .builtin(new DispatchTest.Contract())
            .listener(events::add)
            .build();
    opened.add(loopx);
    loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);
    return loopx;
  }

  private Loopx installed(String runtimeLines) throws IOException {
    return installed(runtimeLines, Loopx.builder());
  }

  private static DispatchReceipt dispatch(Loopx loopx, String tag, String extra) {
    return loopx.dispatch(DispatchTest.request().input(request(tag, extra)).build(), Mode.EXECUTE);
  }

  private static void assertMemoryLimit(DispatchReceipt receipt, long limit) {
    assertThat(receipt.outcome().status())
        .as(receipt.toString())
        .isEqualTo(RunStatus.PROVIDER_FAILED);
    assertThat(receipt.outcome().failure()).contains(RunFailure.MEMORY_LIMIT);
    assertThat(receipt.toJson().get("failure_kind").asString()).isEqualTo("memory_limit");
    assertThat(receipt.toJson().get("memory_limit_bytes").longValue()).isEqualTo(limit);
  }

  @Test
  void aOneShotProviderTouchingPastItsLimitEndsMemoryLimit() throws IOException {
    Loopx loopx = installed("memory_mb = 256\n");
    assertMemoryLimit(dispatch(loopx, "big", ",\"allocate_mb\":400"), MB_256);
    // The same provider under its limit succeeds, and says which limit applied.
    DispatchReceipt small = dispatch(loopx, "small", ",\"allocate_mb\":64");
    assertThat(small.ok()).as(small.toString()).isTrue();
    assertThat(WorkerFixture.result(small).get("allocated").intValue()).isEqualTo(64);
    assertThat(small.memoryLimitBytes()).hasValue(MB_256);
    assertThat(small.toJson().get("memory_limit_bytes").longValue()).isEqualTo(MB_256);
    DoctorReceipt doctor = loopx.doctor(WorkerFixture.ID, Mode.EXECUTE);
    assertThat(doctor.toJson().get("memory_limit_bytes").longValue()).isEqualTo(MB_256);
    assertThat(WorkerFixture.descendants()).isEmpty();
  }

  @Test
  void everyRequestInFlightOnAWorkerKilledForMemoryEndsMemoryLimitAndTheNextGetsANewWorker()
      throws Exception {
    Loopx loopx = installed("memory_mb = 256\n[runtime.worker]\nmax_in_flight = 2\n");
    DispatchReceipt warm = dispatch(loopx, "warm", "");
    assertThat(warm.ok()).as(warm.toString()).isTrue();
    long worker = pid(warm);
    CompletableFuture<DispatchReceipt> waiting =
        CompletableFuture.supplyAsync(() -> dispatch(loopx, "a", ",\"hang\":true"));
    awaitSeen(dir, "a");
    assertMemoryLimit(dispatch(loopx, "b", ",\"allocate_mb\":400"), MB_256);
    assertMemoryLimit(waiting.get(SAFETY.toSeconds(), TimeUnit.SECONDS), MB_256);
    assertThat(eventually(SAFETY, () -> WorkerFixture.gone(worker))).isTrue();
    assertThat(
            eventually(
                SAFETY,
                () ->
                    events.stream()
                        .anyMatch(
                            e ->
                                e instanceof WorkerEvent crashed
                                    && crashed.reason() == WorkerEvent.Reason.CRASHED
                                    && crashed
                                        .failure()
                                        .equals(Optional.of(RunFailure.MEMORY_LIMIT)))))
        .as(events.toString())
        .isTrue();
    // The worker was retired: the next request starts a new one, which serves it.
    DispatchReceipt next = dispatch(loopx, "c", "");
    assertThat(next.ok()).as(next.toString()).isTrue();
    assertThat(pid(next)).isNotEqualTo(worker);
    assertThat(next.memoryLimitBytes()).hasValue(MB_256);
  }

  @Test
  void withoutTheKeyTheHostDefaultOfOneGibApplies() throws IOException {
    Loopx loopx = installed("");
    DispatchReceipt receipt = dispatch(loopx, "d", "");
    assertThat(receipt.ok()).as(receipt.toString()).isTrue();
    assertThat(receipt.memoryLimitBytes()).hasValue(OsProcessLauncher.DEFAULT_MEMORY_LIMIT);
    assertThat(OsProcessLauncher.DEFAULT_MEMORY_LIMIT).isEqualTo(1L << 30);
  }

  @Test
  void theHostOverrideReplacesTheDefaultAndCapsTheManifest() throws IOException {
    Loopx loopx = installed("memory_mb = 2048\n", Loopx.builder().providerMemoryLimit(MB_256));
    // The manifest asks for 2 GiB; the host allows 256 MiB: 400 MiB is killed.
    assertMemoryLimit(dispatch(loopx, "big", ",\"allocate_mb\":400"), MB_256);
  }

  @Test
  void theHostOverrideIsBoundsChecked() {
    Loopx.Builder builder = Loopx.builder();
    assertThatThrownBy(() -> builder.providerMemoryLimit((16L << 20) - 1))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("provider memory limit");
    assertThatThrownBy(() -> builder.providerMemoryLimit((65_536L << 20) + 1))
        .isInstanceOf(InvalidValueException.class);
    builder.providerMemoryLimit(16L << 20).providerMemoryLimit(65_536L << 20);
  }
}
