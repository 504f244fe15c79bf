package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.LoopxException;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.internal.state.Reliability;
import io.loopx.runtime.run.RunStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker soak (docs/contract/worker.md): {@code dispatches} governed dispatches from {@value
 * #THREADS} threads to the standard-library Python worker of {@link WorkerFixture} ({@code
 * max_processes = 2}, {@code max_in_flight = 2}), while each calling thread, before every {@value
 * #KILL_EVERY}th of its calls, SIGKILLs a live worker chosen at random (the other threads have
 * requests in flight). Every call must end {@code succeeded} or typed (a receipt with a failure
 * kind, or a {@link LoopxException} with its kind), none may take longer than the manifest's
 * timeout plus a margin (none hangs), and after {@link Loopx#close()} no process started during the
 * soak is alive.
 *
 * <p>Count: {@code -Dloopx.reliability.workerDispatches} (default 200; the {@code reliability}
 * profile runs 10,000); seed: {@code -Dloopx.reliability.seed}. The summary (outcome counts, kills,
 * the slowest call) is printed and written to {@code target/reliability/worker-soak.txt}.
 */
class WorkerSoakTest {
  static final int DISPATCHES = Reliability.count("workerDispatches", 200);
  static final int THREADS = 4;
  static final int KILL_EVERY = 20;
  static final int TIMEOUT_SECONDS = 10;

  @TempDir Path tmp;

  @Test
  void dispatchesWithRandomWorkerKillsEndSucceededOrTypedAndLeaveNoProcess() throws Exception {
    long seed = Reliability.seed();
    DispatchTest host = new DispatchTest();
    host.tmp = tmp;
    Path dir = tmp.resolve("warm");
    WorkerFixture.write(
        dir, "1.0.0", TIMEOUT_SECONDS, "[runtime.worker]\nmax_processes = 2\nmax_in_flight = 2\n");
    Set<Long> before = Set.copyOf(WorkerFixture.descendants());
    Loopx loopx = host.loopx(new DispatchTest.Contract());
    Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
    List<String> untyped = new ArrayList<>();
    AtomicInteger kills = new AtomicInteger();
    AtomicLong slowestNanos = new AtomicLong();
    Set<Long> workerPids = ConcurrentHashMap.newKeySet();
    long started = System.nanoTime();
    try {
      loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);
      ExecutorService threads = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        int calls = DISPATCHES / THREADS + (t < DISPATCHES % THREADS ? 1 : 0);
        done.add(
            threads.submit(
                () -> {
                  Random random = new Random(seed + thread);
                  for (int i = 0; i < calls; i++) {
                    if (i % KILL_EVERY == KILL_EVERY / 2 && killOne(workerPids, random)) {
                      kills.incrementAndGet();
                    }
                    long start = System.nanoTime();
                    String outcome;
                    try {
                      DispatchReceipt r =
                          loopx.dispatch(
                              DispatchTest.request()
                                  .input(WorkerFixture.request("soak", ""))
                                  .build(),
                              Mode.EXECUTE);
                      outcome =
                          r.outcome().status().wireName()
                              + r.outcome().failure().map(f -> "/" + f.wireName()).orElse("");
                      if (r.outcome().status() == RunStatus.SUCCEEDED) {
                        workerPids.add(WorkerFixture.pid(r));
                      } else if (r.outcome().failure().isEmpty()) {
                        synchronized (untyped) {
                          untyped.add("a failed receipt without a failure kind: " + r.toJson());
                        }
                      }
                    } catch (LoopxException e) {
                      outcome = "error/" + e.kind().wireName();
                    } catch (RuntimeException e) {
                      outcome = "untyped";
                      synchronized (untyped) {
                        // With where it was thrown: a rare one must be diagnosable from the report.
                        untyped.add(
                            e
                                + " at "
                                + Arrays.stream(e.getStackTrace())
                                    .limit(12)
                                    .map(StackTraceElement::toString)
                                    .toList());
                      }
                    }
                    slowestNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                    outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
                  }
                }));
      }
      threads.shutdown();
      // a safety net far above what the run needs: a hang shows as a timeout here and below
      boolean finished = threads.awaitTermination(Math.max(10, DISPATCHES / 10), TimeUnit.MINUTES);
      assertThat(finished).as("every thread finished its calls (none hangs)").isTrue();
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      loopx.close();
    }
    List<Long> left =
        WorkerFixture.descendants().stream().filter(p -> !before.contains(p)).toList();
    Duration wall = Duration.ofNanos(System.nanoTime() - started);
    Duration slowest = Duration.ofNanos(slowestNanos.get());
    Map<String, Integer> counts = new TreeMap<>();
    outcomes.forEach((k, v) -> counts.put(k, v.get()));
    String summary =
        String.format(
            "worker soak: %d dispatches, %d threads, seed %d, %d kills, %d worker processes seen,"
                + " wall %d s, slowest call %d ms; outcomes %s; processes left after close(): %d",
            DISPATCHES,
            THREADS,
            seed,
            kills.get(),
            workerPids.size(),
            wall.toSeconds(),
            slowest.toMillis(),
            counts,
            left.size());
    Reliability.report("worker-soak.txt", List.of(summary));

    assertThat(untyped).as("calls that did not end succeeded or typed").isEmpty();
    assertThat(counts.values().stream().mapToInt(Integer::intValue).sum())
        .as("calls that ended")
        .isEqualTo(DISPATCHES);
    assertThat(kills.get()).as("workers killed during the soak").isPositive();
    assertThat(counts.getOrDefault("succeeded", 0)).as("succeeded calls (%s)", counts).isPositive();
    assertThat(slowest)
        .as("the slowest call (the manifest's timeout is %d s)", TIMEOUT_SECONDS)
        .isLessThan(Duration.ofSeconds(TIMEOUT_SECONDS + 20));
    assertThat(left)
        .as(
            "processes started during the soak and alive after close(): %s",
            left.stream().map(WorkerSoakTest::describe).collect(Collectors.joining("; ")))
        .isEmpty();
  }

  /**
   * SIGKILLs one live worker, chosen at random among the live descendants of this JVM that answered
   * a call (so a reused pid of another process is never signalled); false when none is alive.
   */
  private static boolean killOne(Set<Long> workerPids, Random random) {
    List<ProcessHandle> alive =
        ProcessHandle.current()
            .descendants()
            .filter(p -> workerPids.contains(p.pid()))
            .filter(ProcessHandle::isAlive)
            .toList();
    if (alive.isEmpty()) {
      return false;
    }
    return alive.get(random.nextInt(alive.size())).destroyForcibly();
  }

  private static String describe(long pid) {
    return pid
        + ProcessHandle.of(pid).flatMap(p -> p.info().commandLine()).map(c -> " " + c).orElse("");
  }
}
