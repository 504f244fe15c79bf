package io.loopx.runtime;

import static io.loopx.runtime.WorkerFixture.awaitSeen;
import static io.loopx.runtime.WorkerFixture.eventually;
import static io.loopx.runtime.WorkerFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.dispatch.DispatchReceipt;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Loopx#workerPools()} with the real Python worker of {@link WorkerFixture}: what a pool
 * holds while a request is blocked in it and another waits, and that a retired pool is gone.
 */
class WorkerPoolsTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);

  @TempDir Path tmp;
  private final DispatchTest host = new DispatchTest();
  private final ExecutorService callers = Executors.newFixedThreadPool(2);
  private Loopx loopx;
  private Path dir;

  @BeforeEach
  void setUp() throws IOException {
    host.tmp = tmp;
    dir = tmp.resolve("warm");
    WorkerFixture.write(
        dir, "1.0.0", 30, "[runtime.worker]\nmax_processes = 1\nmax_in_flight = 1\n");
    loopx = host.loopx(new DispatchTest.Contract());
    loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    loopx.close();
    callers.shutdownNow();
    assertThat(callers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
  }

  private CompletableFuture<DispatchReceipt> dispatchLater(byte[] request) {
    return CompletableFuture.supplyAsync(
        () -> loopx.dispatch(DispatchTest.request().input(request).build(), Mode.EXECUTE), callers);
  }

  private WorkerPoolSnapshot only() {
    List<WorkerPoolSnapshot> pools = loopx.workerPools();
    assertThat(pools).hasSize(1);
    return pools.get(0);
  }

  @Test
  void aPoolShowsItsProcessesRequestsInFlightAndQueuedUntilItIsRetired() throws Exception {
    assertThat(loopx.workerPools()).as("no dispatch yet: no pool").isEmpty();

    CompletableFuture<DispatchReceipt> blocked =
        dispatchLater(request("a", ",\"until\":\"release\""));
    awaitSeen(dir, "a"); // the worker holds request a until the file `release` exists
    WorkerPoolSnapshot busy = only();
    assertThat(busy.extensionId()).isEqualTo(WorkerFixture.ID);
    assertThat(busy.processes()).isEqualTo(1);
    assertThat(busy.inFlight()).isEqualTo(1);
    assertThat(busy.queued()).isZero();
    assertThat(busy.maxProcesses()).isEqualTo(1);
    assertThat(busy.maxInFlight()).isEqualTo(1);
    assertThat(busy.maxQueued()).isEqualTo(4);

    CompletableFuture<DispatchReceipt> waiting = dispatchLater(request("b", ""));
    assertThat(eventually(SAFETY, () -> only().queued() == 1))
        .as("request b waits for the one slot")
        .isTrue();
    WorkerPoolSnapshot full = only();
    assertThat(full.processes()).isEqualTo(1);
    assertThat(full.inFlight()).isEqualTo(1);
    assertThat(full.queued()).isEqualTo(1);
    assertThat(blocked).isNotDone();
    assertThat(waiting).isNotDone();

    Files.writeString(dir.resolve("release"), "");
    DispatchReceipt a = blocked.get(30, TimeUnit.SECONDS);
    DispatchReceipt b = waiting.get(30, TimeUnit.SECONDS);
    assertThat(a.ok()).as(a.toString()).isTrue();
    assertThat(b.ok()).as(b.toString()).isTrue();
    assertThat(WorkerFixture.pid(b)).isEqualTo(WorkerFixture.pid(a));
    WorkerPoolSnapshot idle = only();
    assertThat(idle.revision()).isEqualTo(a.revision());
    assertThat(idle.processes()).isEqualTo(1);
    assertThat(idle.inFlight()).isZero();
    assertThat(idle.queued()).isZero();

    // A lifecycle change retires the pool: it is no longer listed.
    loopx.disable(WorkerFixture.ID, Mode.EXECUTE);
    assertThat(loopx.workerPools()).isEmpty();
    long pid = WorkerFixture.pid(a);
    assertThat(eventually(SAFETY, () -> WorkerFixture.gone(pid))).isTrue();
  }

  @Test
  void aClosedFacadeListsNoPool() {
    DispatchReceipt receipt =
        loopx.dispatch(DispatchTest.request().input(request("a", "")).build(), Mode.EXECUTE);
    assertThat(receipt.ok()).isTrue();
    assertThat(loopx.workerPools()).hasSize(1);
    loopx.close();
    assertThat(loopx.workerPools()).isEmpty();
  }
}
