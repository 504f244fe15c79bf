package io.loopx.runtime;

import static io.loopx.runtime.WorkerFixture.pid;
import static io.loopx.runtime.WorkerFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.internal.state.JavaCommand;
import io.loopx.runtime.internal.state.Reliability;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changes made elsewhere retire workers too (docs/contract/worker.md#lifecycle-changes): a disable,
 * upgrade or uninstall committed by another process on the same file state ends the warm worker of
 * the old revision within 2 s, with no request on the worker's host (its watch reads the state once
 * a second).
 *
 * <p>Count: {@code -Dloopx.reliability.remoteRetires} (default 6; the {@code reliability} profile
 * runs 100): changes committed by a second {@code Loopx} on the same root, cycling disable, upgrade
 * and disable + uninstall; the time from the commit's return to the worker's exit is written to
 * {@code target/reliability/remote-retire.txt} (p50, p99, max).
 */
class WorkerRemoteRetireTest {
  private static final Duration BOUND = Duration.ofSeconds(2);
  private static final Duration SAFETY = Duration.ofSeconds(30);
  private static final int RETIRES = Reliability.count("remoteRetires", 6);

  @TempDir Path tmp;

  private Loopx host(Path root) {
    return Loopx.builder()
        .runtimeRoot(root)
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .domainPolicy(DomainPolicy.allowAll())
        .builtin(new DispatchTest.Contract())
        .build();
  }

  @Test
  void aDisableCommittedByAnotherJvmEndsTheWorkerWithinTwoSeconds() throws Exception {
    Path dir = WorkerFixture.write(tmp.resolve("warm"), "1.0.0", 30, "[runtime.worker]\n");
    Path root = tmp.resolve("root");
    try (Loopx operator = host(root)) {
      operator.install(WorkerFixture.load(dir), Mode.EXECUTE);
      Process other =
          new ProcessBuilder(JavaCommand.of(WorkerHostMain.class, Loopx.class, root.toString()))
              .redirectError(tmp.resolve("host.stderr").toFile())
              .start();
      try {
        String first = JavaCommand.firstLine(other);
        assertThat(first).as("host stderr in %s", tmp.resolve("host.stderr")).startsWith("WORKER ");
        long worker = Long.parseLong(first.split(" ")[1]);
        assertThat(WorkerFixture.alive(worker)).isTrue();
        operator.disable(WorkerFixture.ID, Mode.EXECUTE);
        long committed = System.nanoTime();
        assertThat(WorkerFixture.eventually(SAFETY, () -> WorkerFixture.gone(worker))).isTrue();
        Duration took = Duration.ofNanos(System.nanoTime() - committed);
        assertThat(took)
            .as("worker %d of the other JVM outlived the disable", worker)
            .isLessThanOrEqualTo(BOUND);
        assertThat(other.isAlive()).as("the other host itself goes on").isTrue();
      } finally {
        other.destroyForcibly();
        other.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void changesCommittedByAnotherLoopxEndTheOldRevisionsWorkerWithinTwoSeconds() throws Exception {
    Path dir = WorkerFixture.write(tmp.resolve("warm"), "1.0.0", 30, "[runtime.worker]\n");
    Path root = tmp.resolve("root");
    List<Long> micros = new ArrayList<>();
    try (Loopx operator = host(root);
        Loopx serving = host(root)) {
      operator.install(WorkerFixture.load(dir), Mode.EXECUTE);
      List<Consumer<Loopx>> changes =
          List.of(
              l -> l.disable(WorkerFixture.ID, Mode.EXECUTE),
              l -> l.upgrade(WorkerFixture.load(dir), Mode.EXECUTE),
              l -> {
                l.disable(WorkerFixture.ID, Mode.EXECUTE);
                l.uninstall(WorkerFixture.ID, Mode.EXECUTE);
              });
      for (int i = 0; i < RETIRES; i++) {
        int version = i + 1;
        Consumer<Loopx> change = changes.get(i % changes.size());
        long worker =
            pid(
                serving.dispatch(
                    DispatchTest.request().input(request("r" + i, "")).build(), Mode.EXECUTE));
        try {
          WorkerFixture.manifest(dir, "1." + version + ".0", 30, "[runtime.worker]\n");
        } catch (IOException e) {
          throw new AssertionError(e);
        }
        change.accept(operator);
        long committed = System.nanoTime();
        assertThat(WorkerFixture.eventually(SAFETY, () -> WorkerFixture.gone(worker))).isTrue();
        Duration took = Duration.ofNanos(System.nanoTime() - committed);
        micros.add(took.toNanos() / 1000);
        assertThat(took).as("change %d left worker %d", i, worker).isLessThanOrEqualTo(BOUND);
        // Back to one enabled revision for the next round.
        var installed = operator.list().extensions();
        if (installed.isEmpty()) {
          operator.install(WorkerFixture.load(dir), Mode.EXECUTE);
        } else if (!installed.get(0).enabled()) {
          operator.enable(WorkerFixture.ID, Mode.EXECUTE);
        }
      }
    }
    List<Long> sorted = micros.stream().sorted().toList();
    String summary =
        "remote retire: "
            + sorted.size()
            + " changes committed by another Loopx on the same file state; commit to worker exit"
            + " p50 "
            + sorted.get(sorted.size() / 2) / 1000
            + " ms, p99 "
            + sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1))
                / 1000
            + " ms, max "
            + sorted.get(sorted.size() - 1) / 1000
            + " ms (bound "
            + BOUND.toMillis()
            + " ms)";
    System.out.println(summary);
    Reliability.report("remote-retire.txt", List.of(summary));
  }
}
