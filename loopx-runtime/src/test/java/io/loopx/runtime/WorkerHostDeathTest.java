package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loopx.runtime.internal.process.CgroupWatch;
import io.loopx.runtime.internal.process.LongLivedProcess;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.internal.state.JavaCommand;
import io.loopx.runtime.internal.state.Reliability;
import io.loopx.runtime.spi.Containment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the host dies, SIGKILL included, nothing of its worker survives it for more than 2 s
 * (docs/contract/worker.md "Host lifecycle"): a real child JVM host starts a worker that no longer
 * reads its stdin and that started a pid hopper (reparented away from the worker, so without the
 * parent-death signal), and is killed with SIGKILL. The worker dies by its parent-death signal; the
 * hopper by the worker cgroup's keeper, which also removes the cgroup's directories and exits. An
 * empty cgroup named for a dead host, made before the first host starts, is swept by that start.
 *
 * <p>Rounds: {@code -Dloopx.reliability.hostDeaths} (default 2; the {@code reliability} profile
 * runs 20). The summary (rounds, survivors past the bound, time from the SIGKILL to nothing left)
 * goes to {@code target/reliability/host-death.txt}. Skipped without util-linux {@code setpriv} or
 * without a writable cgroup (the process-group fallback cannot find a reparented hopper).
 */
class WorkerHostDeathTest {
  /** The stated bound: nothing of a worker outlives its host by more than this. */
  private static final Duration BOUND = Duration.ofSeconds(2);

  private static final Duration SAFETY = Duration.ofSeconds(30);

  @TempDir Path tmp;

  @Test
  void aHostKilledWithSigkillLeavesNothingOfItsWorkerAfterTwoSeconds() throws Exception {
    assumeTrue(LongLivedProcess.diesWithHost(), "util-linux setpriv is not installed");
    assumeTrue(
        OsProcessLauncher.create().containment().orElseThrow() != Containment.PROCESS_GROUP,
        "no writable cgroup: the process-group fallback cannot find a reparented hopper");
    DispatchTest fixture = new DispatchTest();
    fixture.tmp = tmp;
    Path dir = WorkerFixture.write(tmp.resolve("warm"), "1.0.0", 30, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "deaf-hop");
    try (Loopx installer = fixture.loopx(new DispatchTest.Contract())) {
      installer.install(WorkerFixture.load(dir), Mode.EXECUTE);
    }
    // A dead host's cgroup, left behind: the first host's start sweeps it.
    List<Path> leftBehind = CgroupWatch.deadHostCgroup();
    int rounds = Reliability.count("hostDeaths", 2);
    List<Long> millis = new ArrayList<>();
    List<String> survivors = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      Optional<String> survivor = round(round, millis);
      survivor.ifPresent(survivors::add);
    }
    assertThat(leftBehind)
        .as("a dead host's cgroup survived the sweep")
        .allMatch(d -> !Files.exists(d));
    List<Long> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    List<String> summary = new ArrayList<>();
    summary.add(
        "host-death: " + rounds + " host JVMs SIGKILLed, each with a worker and its hopper");
    summary.add("survivors past " + BOUND.toMillis() + " ms: " + survivors.size());
    survivors.forEach(s -> summary.add("  " + s));
    summary.add(
        "SIGKILL to nothing left (worker, hopper, keeper, cgroup directories), ms: p50="
            + sorted.get((sorted.size() - 1) / 2)
            + " max="
            + sorted.get(sorted.size() - 1));
    Reliability.report("host-death.txt", summary);
    assertThat(survivors).isEmpty();
  }

  /** One host: started, its worker and hopper seen, killed; returns what outlived the bound. */
  private Optional<String> round(int round, List<Long> millis) throws Exception {
    Process host =
        new ProcessBuilder(
                JavaCommand.of(WorkerHostMain.class, Loopx.class, tmp.resolve("root").toString()))
            .redirectError(tmp.resolve("host-" + round + ".stderr").toFile())
            .start();
    long worker = -1;
    long hop = -1;
    try {
      String first = JavaCommand.firstLine(host);
      assertThat(first)
          .as("host stderr in %s", tmp.resolve("host-" + round + ".stderr"))
          .startsWith("WORKER ");
      String[] pids = first.trim().split(" ");
      worker = Long.parseLong(pids[1]);
      hop = Long.parseLong(pids[2]);
      assertThat(WorkerFixture.alive(worker)).isTrue();
      assertThat(hop).as("the worker started no hopper").isPositive();
      assertThat(WorkerFixture.alive(hop)).isTrue();
      assertThat(ProcessHandle.of(hop).flatMap(ProcessHandle::parent).map(ProcessHandle::pid))
          .as("the hopper left its worker")
          .isNotEqualTo(Optional.of(worker));
      List<Path> cgroup = CgroupWatch.callCgroupsOf(worker);
      assertThat(cgroup).as("the worker's cgroup").isNotEmpty();
      assertThat(CgroupWatch.callCgroupsOf(hop)).isEqualTo(cgroup);
      List<Long> keepers = CgroupWatch.keepersOf(cgroup);
      assertThat(keepers).as("the keeper of %s", cgroup).hasSize(1);
      long keeper = keepers.get(0);
      long w = worker;
      long h = hop;
      BooleanSupplier nothingLeft =
          () ->
              WorkerFixture.gone(w)
                  && WorkerFixture.gone(h)
                  && WorkerFixture.gone(keeper)
                  && cgroup.stream().noneMatch(Files::exists);

      long killed = System.nanoTime();
      host.destroyForcibly(); // SIGKILL
      boolean ended = WorkerFixture.eventually(SAFETY, nothingLeft);
      long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
      millis.add(elapsed);
      if (!ended || elapsed > BOUND.toMillis()) {
        return Optional.of(
            "round "
                + round
                + ": "
                + elapsed
                + " ms; worker gone "
                + WorkerFixture.gone(w)
                + ", hopper gone "
                + WorkerFixture.gone(h)
                + ", keeper gone "
                + WorkerFixture.gone(keeper)
                + ", cgroup left "
                + cgroup.stream().filter(Files::exists).toList());
      }
      return Optional.empty();
    } finally {
      host.destroyForcibly();
      host.waitFor(30, TimeUnit.SECONDS);
      for (long pid : new long[] {worker, hop}) {
        if (pid > 0) {
          ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
    }
  }
}
