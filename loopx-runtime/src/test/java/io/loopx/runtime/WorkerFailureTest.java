package io.loopx.runtime;

import static io.loopx.runtime.WorkerFixture.awaitSeen;
import static io.loopx.runtime.WorkerFixture.eventually;
import static io.loopx.runtime.WorkerFixture.pid;
import static io.loopx.runtime.WorkerFixture.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorNotReadyException;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failed worker starts, back-off, {@code provider_unavailable} until a ready doctor, the bounded
 * queue ({@code provider_busy}) and the doctor's worker check (docs/contract/worker.md), with the
 * real standard-library Python worker of {@link WorkerFixture}.
 */
class WorkerFailureTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);

  @TempDir Path tmp;
  private final DispatchTest host = new DispatchTest();
  private final List<Loopx> opened = new ArrayList<>();
  private Path dir;

  @BeforeEach
  void setUp() {
    host.tmp = tmp;
    dir = tmp.resolve("warm");
  }

  @AfterEach
  void closeAll() {
    opened.forEach(Loopx::close);
  }

  private Loopx installed(int timeoutSeconds, String workerTable) throws IOException {
    WorkerFixture.write(dir, "1.0.0", timeoutSeconds, workerTable);
    Loopx loopx = host.loopx(new DispatchTest.Contract());
    opened.add(loopx);
    loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);
    return loopx;
  }

  private static DispatchReceipt dispatch(Loopx loopx, String tag) {
    return loopx.dispatch(DispatchTest.request().input(request(tag, "")).build(), Mode.EXECUTE);
  }

  private static void assertKind(ThrowingCallable call, ErrorKind kind) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(LoopxException.class, e -> assertThat(e.kind()).isEqualTo(kind));
  }

  private static void assertFailed(DispatchReceipt receipt, RunFailure failure) {
    assertThat(receipt.outcome().status())
        .as(receipt.toString())
        .isEqualTo(RunStatus.PROVIDER_FAILED);
    assertThat(receipt.outcome().failure()).contains(failure);
  }

  @Test
  void threeRefusedHandshakesInARowBackOffThenMakeTheExtensionUnavailableUntilADoctorIsReady()
      throws IOException {
    Loopx loopx = installed(5, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "refuse");
    long start = System.nanoTime();
    for (int i = 0; i < 3; i++) {
      assertFailed(dispatch(loopx, "r" + i), RunFailure.WORKER_HANDSHAKE_FAILED);
    }
    // No wait before the first start, then 100 ms and 200 ms before the next two.
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(300));
    assertKind(() -> dispatch(loopx, "refused"), ErrorKind.PROVIDER_UNAVAILABLE);
    assertThat(WorkerFixture.descendants()).isEmpty();

    // A doctor that is not ready (the handshake is still wrong) does not clear it ...
    DoctorReceipt notReady = loopx.doctor(WorkerFixture.ID, Mode.EXECUTE);
    assertThat(notReady.status()).isEqualTo(DoctorStatus.PROVIDER_UNAVAILABLE);
    assertThat(notReady.failure()).contains(DoctorFailure.WORKER_HANDSHAKE_FAILED);
    WorkerFixture.mode(dir, "ok");
    // The failed doctor revoked the proof: resolution leaves the provider out.
    assertThatThrownBy(() -> dispatch(loopx, "still"))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.kind()).isIn(ErrorKind.DOCTOR_STALE, ErrorKind.RESOLUTION_FAILED));
    // ... a ready one does.
    assertThat(loopx.doctor(WorkerFixture.ID, Mode.EXECUTE).status()).isEqualTo(DoctorStatus.READY);
    DispatchReceipt after = dispatch(loopx, "after");
    assertThat(after.ok()).as(after.toString()).isTrue();
  }

  @Test
  void workersThatDieBeforeTheirFirstResponseAreFailedStartsToo() throws IOException {
    Loopx loopx = installed(5, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "die-first");
    for (int i = 0; i < 3; i++) {
      assertFailed(dispatch(loopx, "d" + i), RunFailure.WORKER_TERMINATED);
    }
    assertKind(() -> dispatch(loopx, "refused"), ErrorKind.PROVIDER_UNAVAILABLE);
    assertThat(Files.exists(dir.resolve("seen/refused"))).isFalse();
    // Its handshake is fine, so a doctor is ready and clears it.
    WorkerFixture.mode(dir, "ok");
    assertThat(loopx.doctor(WorkerFixture.ID, Mode.EXECUTE).status()).isEqualTo(DoctorStatus.READY);
    assertThat(dispatch(loopx, "after").ok()).isTrue();
  }

  @Test
  void aWorkerThatCrashesAfterAnsweringIsReplacedAndNeverMakesTheExtensionUnavailable()
      throws IOException {
    Loopx loopx = installed(5, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "twice"); // answers, then breaks the protocol: killed each time
    Set<Long> pids = new HashSet<>();
    for (int i = 0; i < 5; i++) {
      DispatchReceipt receipt = dispatch(loopx, "c" + i);
      assertThat(receipt.ok()).as(receipt.toString()).isTrue();
      long worker = pid(receipt);
      pids.add(worker);
      assertThat(eventually(SAFETY, () -> WorkerFixture.gone(worker))).isTrue();
    }
    assertThat(pids).hasSize(5);
  }

  @Test
  void theQueueIsBoundedAndAWaitPastTheCallersDeadlineIsBusy() throws Exception {
    Loopx loopx = installed(30, "[runtime.worker]\n"); // 1 process, 1 in flight: 4 may wait
    CompletableFuture<DispatchReceipt> held =
        CompletableFuture.supplyAsync(
            () ->
                loopx.dispatch(
                    DispatchTest.request().input(request("held", ",\"until\":\"release\"")).build(),
                    Mode.EXECUTE));
    awaitSeen(dir, "held");
    long start = System.nanoTime();
    assertKind(
        () ->
            loopx.dispatch(
                DispatchTest.request()
                    .input(request("late", ""))
                    .deadline(Duration.ofMillis(300))
                    .build(),
                Mode.EXECUTE),
        ErrorKind.PROVIDER_BUSY);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(300))
        .isLessThan(Duration.ofSeconds(10));

    List<CompletableFuture<DispatchReceipt>> waiting = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      String tag = "w" + i;
      waiting.add(CompletableFuture.supplyAsync(() -> dispatch(loopx, tag)));
    }
    assertThat(
            eventually(SAFETY, () -> loopx.workers().orElseThrow().waiting(WorkerFixture.ID) == 4))
        .isTrue();
    long refusedAt = System.nanoTime();
    assertKind(() -> dispatch(loopx, "fifth"), ErrorKind.PROVIDER_BUSY);
    assertThat(Duration.ofNanos(System.nanoTime() - refusedAt)).isLessThan(Duration.ofSeconds(5));

    Files.writeString(dir.resolve("release"), "go");
    assertThat(held.get(SAFETY.toSeconds(), TimeUnit.SECONDS).ok()).isTrue();
    for (CompletableFuture<DispatchReceipt> w : waiting) {
      assertThat(w.get(SAFETY.toSeconds(), TimeUnit.SECONDS).ok()).isTrue();
    }
    assertThat(Files.exists(dir.resolve("seen/fifth"))).isFalse();
  }

  @Test
  void theDoctorStartsAWorkerAndAWrongHandshakeIsNotReady() throws IOException {
    WorkerFixture.write(dir, "1.0.0", 5, "[runtime.worker]\n");
    WorkerFixture.mode(
        dir, "refuse"); // the one-shot doctor passes; the worker's handshake is wrong
    Loopx loopx = host.loopx(new DispatchTest.Contract());
    opened.add(loopx);
    assertThatThrownBy(() -> loopx.install(WorkerFixture.load(dir), Mode.EXECUTE))
        .isInstanceOfSatisfying(
            DoctorNotReadyException.class,
            e -> {
              assertThat(e.doctor().status()).isEqualTo(DoctorStatus.PROVIDER_UNAVAILABLE);
              assertThat(e.doctor().failure()).contains(DoctorFailure.WORKER_HANDSHAKE_FAILED);
              assertThat(e.getMessage()).contains("worker_handshake_failed");
              assertThat(e.doctor().toJson().get("handshake_line").asString())
                  .isEqualTo("{\"hello\":\"not a handshake\"}");
            });
    assertThat(WorkerFixture.descendants()).isEmpty();

    WorkerFixture.mode(dir, "stray"); // one stray stdout line before a valid handshake
    assertThatThrownBy(() -> loopx.install(WorkerFixture.load(dir), Mode.EXECUTE))
        .isInstanceOfSatisfying(
            DoctorNotReadyException.class,
            e -> {
              assertThat(e.doctor().failure()).contains(DoctorFailure.WORKER_HANDSHAKE_FAILED);
              // The evidence: the offending line's start, white space collapsed, ESC escaped.
              assertThat(e.doctor().toJson().get("handshake_line").asString())
                  .isEqualTo("loading model \\u001B[1m42% done");
            });
    assertThat(WorkerFixture.descendants()).isEmpty();

    WorkerFixture.mode(dir, "silent"); // no handshake at all within timeout_seconds
    WorkerFixture.manifest(dir, "1.0.0", 1, "[runtime.worker]\n");
    assertThatThrownBy(() -> loopx.install(WorkerFixture.load(dir), Mode.EXECUTE))
        .isInstanceOfSatisfying(
            DoctorNotReadyException.class,
            e -> {
              assertThat(e.doctor().failure()).contains(DoctorFailure.WORKER_HANDSHAKE_FAILED);
              assertThat(e.doctor().toJson().get("handshake_line").isNull())
                  .as("no line was written")
                  .isTrue();
            });
    assertThat(WorkerFixture.descendants()).isEmpty();

    WorkerFixture.mode(dir, "ok");
    DoctorReceipt ready =
        loopx.install(WorkerFixture.load(dir), Mode.EXECUTE).doctor().orElseThrow();
    assertThat(ready.status()).isEqualTo(DoctorStatus.READY);
    assertThat(ready.toJson().get("handshake_line").isNull()).isTrue();
    // The doctor's worker was stopped: nothing of it is left, and no pool holds it.
    assertThat(WorkerFixture.descendants()).isEmpty();
    assertThat(loopx.workers().orElseThrow().pids(WorkerFixture.ID)).isEmpty();
  }
}
