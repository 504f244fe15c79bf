package io.loopx.runtime;

import static io.loopx.runtime.WorkerFixture.alive;
import static io.loopx.runtime.WorkerFixture.awaitSeen;
import static io.loopx.runtime.WorkerFixture.eventually;
import static io.loopx.runtime.WorkerFixture.pid;
import static io.loopx.runtime.WorkerFixture.request;
import static io.loopx.runtime.WorkerFixture.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.LoopxException;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Warm workers behind {@code Loopx.dispatch} (docs/contract/worker.md), with the real
 * standard-library Python worker of {@link WorkerFixture} and real processes throughout.
 */
class WorkerDispatchTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);

  @TempDir Path tmp;
  private final DispatchTest host = new DispatchTest();
  private final List<Loopx> opened = new ArrayList<>();
  private Path dir;

  @BeforeEach
  void setUp() throws IOException {
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

  private static DispatchReceipt dispatch(Loopx loopx, byte[] request) {
    return loopx.dispatch(DispatchTest.request().input(request).build(), Mode.EXECUTE);
  }

  private static void assertFailed(DispatchReceipt receipt, RunStatus status, RunFailure failure) {
    assertThat(receipt.outcome().status()).as(receipt.toString()).isEqualTo(status);
    assertThat(receipt.outcome().failure()).contains(failure);
    assertThat(receipt.outcome().exitCode()).isEqualTo(OptionalInt.empty());
  }

  @Test
  void oneWarmProcessAnswersEveryRequestUnderTheSameGovernance() throws IOException {
    Loopx loopx = installed(10, "[runtime.worker]\n");
    Set<Long> pids = new HashSet<>();
    for (int i = 0; i < 5; i++) {
      DispatchReceipt receipt = dispatch(loopx, request("r" + i, ""));
      assertThat(receipt.ok()).as(receipt.toString()).isTrue();
      assertThat(receipt.outcome().exitCode()).isEmpty();
      assertThat(result(receipt).get("served").intValue()).isEqualTo(i + 1);
      assertThat(result(receipt).get("revision").stringValue())
          .isEqualTo(receipt.revision().value());
      assertThat(result(receipt).get("envelope_revision").stringValue())
          .isEqualTo(receipt.revision().value());
      pids.add(pid(receipt));
    }
    assertThat(pids).hasSize(1);
    assertThat(host.policyCalls).hasSize(5);
    long worker = pids.iterator().next();
    loopx.close();
    assertThat(alive(worker)).isFalse();
    assertThat(WorkerFixture.descendants()).isEmpty();
    // After close() the same call runs one-shot.
    assertThat(result(dispatch(loopx, request("after", ""))).get("one_shot").booleanValue())
        .isTrue();
  }

  @Test
  void aWorkerIsRecycledAfterMaxRequestsAndRetiredWhenIdle() throws IOException {
    Loopx loopx = installed(10, "[runtime.worker]\nmax_requests = 2\nidle_seconds = 1\n");
    long first = pid(dispatch(loopx, request("a", "")));
    assertThat(pid(dispatch(loopx, request("b", "")))).isEqualTo(first);
    DispatchReceipt third = dispatch(loopx, request("c", ""));
    assertThat(pid(third)).isNotEqualTo(first);
    assertThat(result(third).get("served").intValue()).isEqualTo(1);
    assertThat(eventually(SAFETY, () -> !alive(first))).isTrue();
    long second = pid(third);
    assertThat(eventually(SAFETY, () -> !alive(second))).as("idle worker retired").isTrue();
    assertThat(eventually(SAFETY, () -> WorkerFixture.descendants().isEmpty())).isTrue();
  }

  @Test
  void aRefusedHandshakeIsTypedAndLeavesNothing() throws IOException {
    Loopx loopx = installed(5, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "refuse");
    DispatchReceipt receipt = dispatch(loopx, request("a", ""));
    assertFailed(receipt, RunStatus.PROVIDER_FAILED, RunFailure.WORKER_HANDSHAKE_FAILED);
    assertThat(WorkerFixture.descendants()).isEmpty();
  }

  @Test
  void aWorkerThatNeverHandshakesIsRetiredAtTheTimeout() throws IOException {
    Loopx loopx = installed(1, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "silent");
    DispatchReceipt receipt = dispatch(loopx, request("a", ""));
    assertFailed(receipt, RunStatus.PROVIDER_FAILED, RunFailure.WORKER_HANDSHAKE_FAILED);
    assertThat(WorkerFixture.descendants()).isEmpty();
  }

  @Test
  void aMalformedFrameRetiresTheWorkerAndTheNextRequestGetsANewOne() throws IOException {
    Loopx loopx = installed(5, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "malformed");
    assertFailed(
        dispatch(loopx, request("a", "")), RunStatus.PROVIDER_FAILED, RunFailure.WORKER_TERMINATED);
    assertThat(eventually(SAFETY, () -> WorkerFixture.descendants().isEmpty())).isTrue();
    WorkerFixture.mode(dir, "ok");
    assertThat(dispatch(loopx, request("b", "")).ok()).isTrue();
  }

  @Test
  void aResponseToAnUnknownIdRetiresTheWorker() throws IOException {
    Loopx loopx = installed(5, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "unknown-id");
    assertFailed(
        dispatch(loopx, request("a", "")), RunStatus.PROVIDER_FAILED, RunFailure.WORKER_TERMINATED);
    assertThat(eventually(SAFETY, () -> WorkerFixture.descendants().isEmpty())).isTrue();
  }

  @Test
  void aSecondResponseToOneRequestRetiresTheWorker() throws IOException {
    Loopx loopx = installed(5, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "twice");
    DispatchReceipt first = dispatch(loopx, request("a", ""));
    assertThat(first.ok()).isTrue();
    long worker = pid(first);
    assertThat(eventually(SAFETY, () -> !alive(worker))).isTrue();
    WorkerFixture.mode(dir, "ok");
    DispatchReceipt next = dispatch(loopx, request("b", ""));
    assertThat(next.ok()).isTrue();
    assertThat(pid(next)).isNotEqualTo(worker);
  }

  @Test
  void anOversizeResponseIsTooLargeAndKillsTheWorker() throws IOException {
    Loopx loopx = installed(10, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "big");
    assertFailed(
        dispatch(loopx, request("a", "")),
        RunStatus.INVALID_PROVIDER_OUTPUT,
        RunFailure.RESPONSE_TOO_LARGE);
    assertThat(eventually(SAFETY, () -> WorkerFixture.descendants().isEmpty())).isTrue();
  }

  @Test
  void aTimeoutKillsTheWholeTreeAndTheOtherRequestInFlightEndsTyped() throws Exception {
    Loopx loopx = installed(2, "[runtime.worker]\nmax_in_flight = 2\n");
    WorkerFixture.mode(dir, "child");
    CompletableFuture<DispatchReceipt> first =
        CompletableFuture.supplyAsync(() -> dispatch(loopx, request("first", "")));
    awaitSeen(dir, "first");
    long grandchild = Long.parseLong(Files.readString(dir.resolve("seen/grandchild")).trim());
    assertThat(alive(grandchild)).isTrue();
    CompletableFuture<DispatchReceipt> second =
        CompletableFuture.supplyAsync(() -> dispatch(loopx, request("second", "")));
    awaitSeen(dir, "second");
    assertFailed(
        first.get(SAFETY.toSeconds(), TimeUnit.SECONDS),
        RunStatus.PROVIDER_FAILED,
        RunFailure.TIMEOUT);
    assertFailed(
        second.get(SAFETY.toSeconds(), TimeUnit.SECONDS),
        RunStatus.PROVIDER_FAILED,
        RunFailure.WORKER_TERMINATED);
    assertThat(eventually(SAFETY, () -> !alive(grandchild))).isTrue();
    assertThat(WorkerFixture.descendants()).isEmpty();
  }

  @Test
  void aWorkerKilledFromOutsideEndsItsRequestTyped() throws Exception {
    Loopx loopx = installed(30, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "hang");
    CompletableFuture<DispatchReceipt> call =
        CompletableFuture.supplyAsync(() -> dispatch(loopx, request("victim", "")));
    awaitSeen(dir, "victim");
    long worker = Long.parseLong(Files.readString(dir.resolve("seen/victim")).trim());
    ProcessHandle.of(worker).orElseThrow().destroyForcibly();
    assertFailed(
        call.get(SAFETY.toSeconds(), TimeUnit.SECONDS),
        RunStatus.PROVIDER_FAILED,
        RunFailure.WORKER_TERMINATED);
    assertThat(eventually(SAFETY, () -> WorkerFixture.descendants().isEmpty())).isTrue();
  }

  @Test
  void closeLetsARequestInFlightFinishAndLeavesNothing() throws Exception {
    Loopx loopx = installed(30, "[runtime.worker]\n");
    CompletableFuture<DispatchReceipt> call =
        CompletableFuture.supplyAsync(
            () -> dispatch(loopx, request("slow", ",\"until\":\"release\"")));
    awaitSeen(dir, "slow");
    CompletableFuture<Void> closing = CompletableFuture.runAsync(loopx::close);
    Files.writeString(dir.resolve("release"), "go");
    DispatchReceipt receipt = call.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    closing.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    assertThat(receipt.ok()).as(receipt.toString()).isTrue();
    assertThat(WorkerFixture.descendants()).isEmpty();
  }

  @Test
  void anIdentityChangeOnDiskNeverReachesTheOldWorker() throws IOException {
    Loopx loopx = installed(10, "[runtime.worker]\n");
    long before = pid(dispatch(loopx, request("a", "")));
    Files.writeString(
        dir.resolve("bin/worker"), "\n# changed\n", java.nio.file.StandardOpenOption.APPEND);
    try {
      dispatch(loopx, request("b", ""));
      throw new AssertionError("a changed runtime was dispatched to");
    } catch (LoopxException e) {
      // Resolution already leaves out a provider whose proof no longer covers its runtime.
      assertThat(e.kind().wireName()).isIn("doctor_stale", "resolution_failed");
    }
    assertThat(Files.exists(dir.resolve("seen/b"))).isFalse();
    loopx.doctor(WorkerFixture.ID, Mode.EXECUTE);
    assertThat(eventually(SAFETY, () -> !alive(before))).isTrue();
    DispatchReceipt after = dispatch(loopx, request("c", ""));
    assertThat(after.ok()).isTrue();
    assertThat(pid(after)).isNotEqualTo(before);
  }

  @Test
  void noRequestRunsOnARetiredRevisionDuringUpgradesRollbacksAndDisables() throws Exception {
    Loopx loopx = installed(10, "[runtime.worker]\nmax_processes = 2\nmax_in_flight = 2\n");
    List<CompletableFuture<List<String>>> streams = new ArrayList<>();
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    for (int t = 0; t < 4; t++) {
      int thread = t;
      streams.add(
          CompletableFuture.supplyAsync(
              () -> {
                List<String> problems = new ArrayList<>();
                for (int i = 0; !stop.get(); i++) {
                  try {
                    DispatchReceipt r = dispatch(loopx, request("t" + thread + "-" + i, ""));
                    if (!r.ok()) {
                      // Typed under load (a timeout on a busy machine) is allowed; untyped is not.
                      if (r.outcome().failure().isEmpty()) {
                        problems.add("not ok and untyped: " + r);
                      }
                      continue;
                    }
                    String served = result(r).get("revision").stringValue();
                    if (!served.equals(r.revision().value())) {
                      problems.add("served by " + served + " for " + r.revision());
                    }
                  } catch (LoopxException e) {
                    String kind = e.kind().wireName();
                    // The lifecycle races, plus the pool's typed back-pressure on a loaded machine
                    // (no slot within the timeout; starts failing while the machine is starved).
                    if (!Set.of(
                            "state_conflict",
                            "extension_disabled",
                            "resolution_failed",
                            "doctor_stale",
                            "provider_busy",
                            "provider_unavailable")
                        .contains(kind)) {
                      problems.add("unexpected " + kind + ": " + e.getMessage());
                    }
                  }
                }
                return problems;
              }));
    }
    for (int round = 0; round < 3; round++) {
      WorkerFixture.manifest(
          dir,
          "1." + (round + 1) + ".0",
          10,
          "[runtime.worker]\nmax_processes = 2\nmax_in_flight = 2\n");
      loopx.upgrade(WorkerFixture.load(dir), Mode.EXECUTE);
      loopx.rollback(WorkerFixture.ID, Mode.EXECUTE);
      loopx.rollback(WorkerFixture.ID, Mode.EXECUTE);
      loopx.disable(WorkerFixture.ID, Mode.EXECUTE);
      loopx.enable(WorkerFixture.ID, Mode.EXECUTE);
    }
    stop.set(true);
    for (CompletableFuture<List<String>> s : streams) {
      assertThat(s.get(60, TimeUnit.SECONDS)).isEmpty();
    }
    loopx.close();
    assertThat(WorkerFixture.descendants()).isEmpty();
  }
}
