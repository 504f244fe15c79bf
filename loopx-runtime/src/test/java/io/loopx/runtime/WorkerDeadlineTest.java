package io.loopx.runtime;

import static io.loopx.runtime.WorkerFixture.gone;
import static io.loopx.runtime.WorkerFixture.pid;
import static io.loopx.runtime.WorkerFixture.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.run.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A caller's deadline and an interrupt of the calling thread (docs/contract/worker.md#deadline),
 * for one-shot providers and warm workers alike, with real processes: each ends typed and nothing
 * of the provider's tree, a grandchild included, is left.
 */
class WorkerDeadlineTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);
  private static final Duration DEADLINE = Duration.ofMillis(300);

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

  /** A one-shot provider (no worker table) in sh: it starts a grandchild, notes both, sleeps. */
  private Loopx oneShotSleeper() throws IOException {
    WorkerFixture.write(dir, "1.0.0", 30, "");
    Path script = dir.resolve("bin/worker");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "[ \"$1\" = --doctor ] && exit 0\n"
            + "here=$(dirname \"$0\")/..\n"
            + "sleep 600 &\n"
            + "echo $! > \"$here/child.tmp\" && mv \"$here/child.tmp\" \"$here/child\"\n"
            + "echo $$ > \"$here/leader.tmp\" && mv \"$here/leader.tmp\" \"$here/leader\"\n"
            + "sleep 600\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return installed();
  }

  private Loopx worker() throws IOException {
    WorkerFixture.write(dir, "1.0.0", 30, "[runtime.worker]\n");
    return installed();
  }

  private Loopx installed() {
    Loopx loopx = host.loopx(new DispatchTest.Contract());
    opened.add(loopx);
    loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);
    return loopx;
  }

  private static void assertFailed(DispatchReceipt receipt, RunFailure failure) {
    assertThat(receipt.outcome().status())
        .as(receipt.toString())
        .isEqualTo(RunStatus.PROVIDER_FAILED);
    assertThat(receipt.outcome().failure()).contains(failure);
    assertThat(receipt.outcome().exitCode()).isEqualTo(OptionalInt.empty());
  }

  private long marker(String name) throws IOException {
    Path file = dir.resolve(name);
    assertThat(file).as("the provider noted %s", name).exists();
    return Long.parseLong(Files.readString(file).trim());
  }

  /** Runs {@code call} on a thread of its own and interrupts it once {@code ready} holds. */
  private static DispatchReceipt interruptedWhen(
      Supplier<Boolean> ready, Supplier<DispatchReceipt> call) throws Exception {
    CompletableFuture<DispatchReceipt> result = new CompletableFuture<>();
    CompletableFuture<Boolean> stillInterrupted = new CompletableFuture<>();
    Thread caller =
        new Thread(
            () -> {
              try {
                result.complete(call.get());
              } catch (RuntimeException e) {
                result.completeExceptionally(e);
              }
              stillInterrupted.complete(Thread.currentThread().isInterrupted());
            });
    caller.start();
    assertThat(WorkerFixture.eventually(SAFETY, ready::get)).as("the provider got going").isTrue();
    caller.interrupt();
    DispatchReceipt receipt = result.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    assertThat(stillInterrupted.get(SAFETY.toSeconds(), TimeUnit.SECONDS))
        .as("the interrupt status is restored")
        .isTrue();
    return receipt;
  }

  @Test
  void aOneShotDispatchPastItsDeadlineEndsTimeoutAndItsWholeTreeIsGone() throws Exception {
    Loopx loopx = oneShotSleeper();
    long start = System.nanoTime();
    DispatchReceipt receipt =
        loopx.dispatch(
            DispatchTest.request().input(request("a", "")).deadline(DEADLINE).build(),
            Mode.EXECUTE);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertFailed(receipt, RunFailure.TIMEOUT);
    // The manifest allows 30 s; the deadline, the 1 s termination grace and slack are far less.
    assertThat(took).isLessThan(Duration.ofSeconds(10));
    long leader = marker("leader");
    long child = marker("child");
    assertThat(gone(leader)).isTrue();
    assertThat(gone(child)).as("grandchild %s", child).isTrue();
  }

  @Test
  void anInterruptedOneShotDispatchEndsCancelledAndItsWholeTreeIsGone() throws Exception {
    Loopx loopx = oneShotSleeper();
    DispatchReceipt receipt =
        interruptedWhen(
            () -> Files.exists(dir.resolve("leader")),
            () ->
                loopx.dispatch(
                    DispatchTest.request().input(request("a", "")).build(), Mode.EXECUTE));
    assertFailed(receipt, RunFailure.CANCELLED);
    assertThat(gone(marker("leader"))).isTrue();
    assertThat(gone(marker("child"))).isTrue();
    // The checks after the run still worked on the interrupted thread: the proof stands.
    assertThat(loopx.check(WorkerFixture.ID, java.util.Set.of()).extensionId())
        .isEqualTo(WorkerFixture.ID);
  }

  @Test
  void aWorkerRequestPastItsDeadlineEndsTimeoutAndTheWorkerIsRetiredWithItsTree() throws Exception {
    Loopx loopx = worker();
    long worker =
        pid(
            loopx.dispatch(
                DispatchTest.request().input(request("warm", "")).build(), Mode.EXECUTE));
    long start = System.nanoTime();
    DispatchReceipt receipt =
        loopx.dispatch(
            DispatchTest.request()
                .input(request("late", ",\"spawn\":true"))
                .deadline(DEADLINE)
                .build(),
            Mode.EXECUTE);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertFailed(receipt, RunFailure.TIMEOUT);
    assertThat(took).isLessThan(Duration.ofSeconds(10));
    assertThat(gone(worker)).isTrue();
    assertThat(loopx.workers().orElseThrow().pids(WorkerFixture.ID)).doesNotContain(worker);
    if (Files.exists(dir.resolve("seen/late.child"))) {
      // The worker got as far as its grandchild before the deadline: it went with the tree.
      long child = Long.parseLong(Files.readString(dir.resolve("seen/late.child")).trim());
      assertThat(gone(child)).as("grandchild %s", child).isTrue();
    }
    // The next request gets a new worker.
    DispatchReceipt next =
        loopx.dispatch(
            DispatchTest.request().input(request("next", "")).deadline(SAFETY).build(),
            Mode.EXECUTE);
    assertThat(next.ok()).as(next.toString()).isTrue();
    assertThat(pid(next)).isNotEqualTo(worker);
  }

  @Test
  void anInterruptedWorkerRequestEndsCancelledAndTheWorkerIsRetiredWithItsTree() throws Exception {
    Loopx loopx = worker();
    long worker =
        pid(
            loopx.dispatch(
                DispatchTest.request().input(request("warm", "")).build(), Mode.EXECUTE));
    DispatchReceipt receipt =
        interruptedWhen(
            () -> Files.exists(dir.resolve("seen/victim.child")),
            () ->
                loopx.dispatch(
                    DispatchTest.request().input(request("victim", ",\"spawn\":true")).build(),
                    Mode.EXECUTE));
    assertFailed(receipt, RunFailure.CANCELLED);
    assertThat(loopx.check(WorkerFixture.ID, java.util.Set.of()).extensionId())
        .isEqualTo(WorkerFixture.ID);
    long child = marker("seen/victim.child");
    assertThat(gone(worker)).isTrue();
    assertThat(gone(child)).as("grandchild %s", child).isTrue();
    assertThat(WorkerFixture.descendants()).isEmpty();
  }

  @Test
  void aManagedRunPastItsDeadlineEndsTimeoutOneShotAndOnAWorker() throws Exception {
    // A standalone package (no permissions, no [[implements]]) around the same Python worker.
    WorkerFixture.write(dir, "1.0.0", 30, "");
    for (String table : List.of("", "[runtime.worker]\n")) {
      Files.writeString(
          dir.resolve("extension.toml"),
          "schema_version = \"loopx_extension_manifest_v0\"\n"
              + "id = \"warm-recall\"\nversion = \"1.0.0\"\n"
              + "requires_loopx_api = \">=1,<2\"\n"
              + "[runtime]\nprotocol = \"demo_recall_v0\"\nentrypoint = \"bin/worker\"\n"
              + "doctor_args = [\"--doctor\"]\ntimeout_seconds = 30\n"
              + table);
      Loopx loopx = host.loopx();
      opened.add(loopx);
      if (table.isEmpty()) {
        loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);
      } else {
        loopx.upgrade(WorkerFixture.load(dir), Mode.EXECUTE);
      }
      String tag = table.isEmpty() ? "oneshot" : "worker";
      long start = System.nanoTime();
      io.loopx.runtime.run.RunReceipt receipt =
          loopx.run(
              RunRequest.of(WorkerFixture.ID, request(tag, ",\"sleep\":true,\"hang\":true"))
                  .withDeadline(DEADLINE),
              Mode.EXECUTE);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
      assertThat(receipt.outcome().status())
          .as(receipt.toString())
          .isEqualTo(RunStatus.PROVIDER_FAILED);
      assertThat(receipt.outcome().failure()).contains(RunFailure.TIMEOUT);
      assertThat(loopx.workers().orElseThrow().pids(WorkerFixture.ID)).isEmpty();
      loopx.close();
      assertThat(WorkerFixture.descendants()).isEmpty();
    }
  }

  @Test
  void aDeadlineMustBePositive() throws IOException {
    Loopx loopx = worker();
    assertThatThrownBy(
            () ->
                loopx.dispatch(
                    DispatchTest.request().input(request("a", "")).deadline(Duration.ZERO).build(),
                    Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE))
        .hasMessage("invalid deadline `PT0S`: must be positive");
    assertThatThrownBy(
            () ->
                loopx.run(
                    RunRequest.of(WorkerFixture.ID, request("a", ""))
                        .withDeadline(Duration.ofSeconds(-1)),
                    Mode.EXECUTE))
        .hasMessage("invalid deadline `PT-1S`: must be positive");
  }
}
