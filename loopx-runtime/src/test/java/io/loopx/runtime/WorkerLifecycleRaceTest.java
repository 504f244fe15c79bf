package io.loopx.runtime;

import static io.loopx.runtime.WorkerFixture.awaitSeen;
import static io.loopx.runtime.WorkerFixture.eventually;
import static io.loopx.runtime.WorkerFixture.pid;
import static io.loopx.runtime.WorkerFixture.request;
import static io.loopx.runtime.WorkerFixture.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.events.LoopxEvent;
import io.loopx.runtime.events.WorkerEvent;
import io.loopx.runtime.internal.state.Reliability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A committed lifecycle change wins over worker requests that wait in the queue
 * (docs/contract/worker.md#lifecycle-changes): one {@code Loopx}, a worker with {@code
 * max_processes = 1} and {@code max_in_flight = 1}, request A in flight (held by the real Python
 * worker until a file appears), B and C queued; then a disable, an uninstall or an upgrade executes
 * on the same {@code Loopx}. A finishes on its worker; B and C never run on the old revision; no
 * worker of the old revision is spawned after the commit; nothing of it is alive once A ended.
 *
 * <p>Count: {@code -Dloopx.reliability.lifecycleRaces} rounds of each scenario (default 1; the
 * {@code reliability} profile runs 40), each on a fresh root; the tally (rounds, requests served by
 * the old revision after the commit, which must be 0) goes to {@code
 * target/reliability/lifecycle-races.txt}.
 */
class WorkerLifecycleRaceTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);
  private static final Object COMMITTED = new Object();
  private static final int ROUNDS = Reliability.count("lifecycleRaces", 1);
  private static final Map<String, Integer> TALLY = new TreeMap<>();

  @TempDir Path base;
  private final List<Object> timeline = new ArrayList<>();
  private Path tmp;
  private Loopx loopx;
  private Path dir;

  @AfterAll
  static void report() {
    synchronized (TALLY) {
      String summary =
          "lifecycle vs queue races: "
              + TALLY
              + " (served on the old revision after"
              + " the commit: 0 in every round, else the round failed)";
      System.out.println(summary);
      Reliability.report("lifecycle-races.txt", List.of(summary));
    }
  }

  private static void tally(String scenario) {
    synchronized (TALLY) {
      TALLY.merge(scenario, 1, Integer::sum);
    }
  }

  /** Starts round {@code round}: a fresh root, package and {@code Loopx}. */
  private void setUp(int round) throws IOException {
    if (loopx != null) {
      loopx.close();
    }
    timeline.clear();
    tmp = base.resolve("round-" + round);
    dir = tmp.resolve("warm");
    WorkerFixture.write(dir, "1.0.0", 30, "[runtime.worker]\nmax_processes = 1\n");
    loopx =
        Loopx.builder()
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .builtin(new DispatchTest.Contract())
            .domainPolicy(DomainPolicy.allowAll())
            .listener(this::heard)
            .build();
    loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);
  }

  @AfterEach
  void close() {
    if (loopx != null) {
      loopx.close();
    }
  }

  private void heard(LoopxEvent event) {
    synchronized (timeline) {
      timeline.add(event);
    }
  }

  private CompletableFuture<DispatchReceipt> dispatch(String tag, String extra) {
    return CompletableFuture.supplyAsync(
        () ->
            loopx.dispatch(
                DispatchTest.request().input(request(tag, extra)).build(), Mode.EXECUTE));
  }

  /**
   * Holds A in flight and B, C in the queue, runs {@code change}, marks the commit in the timeline,
   * releases A and returns the three calls.
   */
  private List<CompletableFuture<DispatchReceipt>> raceAgainst(Consumer<Loopx> change) {
    CompletableFuture<DispatchReceipt> a = dispatch("A", ",\"until\":\"release\"");
    awaitSeen(dir, "A");
    CompletableFuture<DispatchReceipt> b = dispatch("B", "");
    CompletableFuture<DispatchReceipt> c = dispatch("C", "");
    assertThat(
            eventually(SAFETY, () -> loopx.workers().orElseThrow().waiting(WorkerFixture.ID) == 2))
        .as("B and C wait for the one worker")
        .isTrue();
    change.accept(loopx);
    synchronized (timeline) {
      timeline.add(COMMITTED);
    }
    try {
      Files.writeString(dir.resolve("release"), "go");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return List.of(a, b, c);
  }

  private List<WorkerEvent> spawnedAfterTheCommit(Revision revision) {
    synchronized (timeline) {
      return timeline.subList(timeline.indexOf(COMMITTED), timeline.size()).stream()
          .filter(WorkerEvent.class::isInstance)
          .map(WorkerEvent.class::cast)
          .filter(s -> s.reason() == WorkerEvent.Reason.SPAWNED)
          .filter(s -> s.revision().equals(revision))
          .toList();
    }
  }

  private static ErrorKind refusal(CompletableFuture<DispatchReceipt> call) throws Exception {
    try {
      DispatchReceipt receipt = call.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
      throw new AssertionError("expected a refusal, got " + receipt);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(LoopxException.class);
      return ((LoopxException) e.getCause()).kind();
    }
  }

  private void assertTheOldWorkerIsGone(long worker) {
    assertThat(eventually(SAFETY, () -> WorkerFixture.gone(worker)))
        .as("the old revision's worker is gone once A ended")
        .isTrue();
    assertThat(loopx.workers().orElseThrow().pids(WorkerFixture.ID)).doesNotContain(worker);
  }

  @Test
  void afterADisableQueuedRequestsEndExtensionDisabledAndNothingOfTheOldPoolRuns()
      throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      setUp(round);
      disableRound();
      tally("disable");
    }
  }

  private void disableRound() throws Exception {
    Revision old = loopx.list().extensions().get(0).activeRevision();
    List<CompletableFuture<DispatchReceipt>> calls =
        raceAgainst(l -> l.disable(WorkerFixture.ID, Mode.EXECUTE));

    DispatchReceipt a = calls.get(0).get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    assertThat(a.ok()).as("A was admitted before the commit: it finishes").isTrue();
    assertThat(refusal(calls.get(1))).isEqualTo(ErrorKind.EXTENSION_DISABLED);
    assertThat(refusal(calls.get(2))).isEqualTo(ErrorKind.EXTENSION_DISABLED);
    assertThat(Files.exists(dir.resolve("seen/B"))).isFalse();
    assertThat(Files.exists(dir.resolve("seen/C"))).isFalse();
    assertThat(spawnedAfterTheCommit(old)).isEmpty();
    assertTheOldWorkerIsGone(pid(a));
    assertThat(loopx.workers().orElseThrow().waiting(WorkerFixture.ID)).isZero();
  }

  @Test
  void afterAnUninstallByAnotherLoopxQueuedRequestsEndNotInstalled() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      setUp(round);
      uninstallRound();
      tally("uninstall_elsewhere");
    }
  }

  private void uninstallRound() throws Exception {
    // An operator's disable and uninstall through another Loopx on the same root (the CLI's path):
    // this Loopx hears of neither, so B and C stay queued until A ends; the check right before
    // their frames sees the uninstall.
    Revision old = loopx.list().extensions().get(0).activeRevision();
    Loopx operator =
        Loopx.builder()
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .builtin(new DispatchTest.Contract())
            .build();
    List<CompletableFuture<DispatchReceipt>> calls =
        raceAgainst(
            l -> {
              operator.disable(WorkerFixture.ID, Mode.EXECUTE);
              assertThat(operator.uninstall(WorkerFixture.ID, Mode.EXECUTE).changed()).isTrue();
              operator.close();
            });

    DispatchReceipt a = calls.get(0).get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    assertThat(a.ok()).isTrue();
    assertThat(refusal(calls.get(1))).isEqualTo(ErrorKind.NOT_INSTALLED);
    assertThat(refusal(calls.get(2))).isEqualTo(ErrorKind.NOT_INSTALLED);
    assertThat(Files.exists(dir.resolve("seen/B"))).isFalse();
    assertThat(Files.exists(dir.resolve("seen/C"))).isFalse();
    assertThat(spawnedAfterTheCommit(old)).isEmpty();
    assertTheOldWorkerIsGone(pid(a));
  }

  @Test
  void afterAnUpgradeQueuedRequestsAreServedByTheNewRevision() throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      setUp(round);
      upgradeRound();
      tally("upgrade");
    }
  }

  private void upgradeRound() throws Exception {
    Revision old = loopx.list().extensions().get(0).activeRevision();
    List<CompletableFuture<DispatchReceipt>> calls =
        raceAgainst(
            l -> {
              try {
                WorkerFixture.manifest(dir, "1.1.0", 30, "[runtime.worker]\nmax_processes = 1\n");
              } catch (IOException e) {
                throw new AssertionError(e);
              }
              l.upgrade(WorkerFixture.load(dir), Mode.EXECUTE);
            });
    Revision upgraded = loopx.list().extensions().get(0).activeRevision();
    assertThat(upgraded).isNotEqualTo(old);

    DispatchReceipt a = calls.get(0).get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    assertThat(a.ok()).isTrue();
    assertThat(a.revision()).isEqualTo(old);
    for (CompletableFuture<DispatchReceipt> queued : calls.subList(1, 3)) {
      DispatchReceipt receipt = queued.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
      assertThat(receipt.ok()).as(receipt.toString()).isTrue();
      assertThat(receipt.revision()).isEqualTo(upgraded);
      assertThat(result(receipt).get("revision").stringValue()).isEqualTo(upgraded.value());
      assertThat(pid(receipt)).isNotEqualTo(pid(a));
    }
    assertThat(spawnedAfterTheCommit(old)).isEmpty();
    assertThat(spawnedAfterTheCommit(upgraded)).hasSize(1);
    assertTheOldWorkerIsGone(pid(a));
  }
}
