package io.loopx.runtime;

import static io.loopx.runtime.WorkerFixture.eventually;
import static io.loopx.runtime.WorkerFixture.pid;
import static io.loopx.runtime.WorkerFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.Revision;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.events.LoopxEvent;
import io.loopx.runtime.events.LoopxListener;
import io.loopx.runtime.events.WorkerCrashed;
import io.loopx.runtime.events.WorkerRetireReason;
import io.loopx.runtime.events.WorkerRetired;
import io.loopx.runtime.events.WorkerSpawned;
import io.loopx.runtime.run.RunFailure;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker events (docs/observing.md): {@link WorkerSpawned}, {@link WorkerRetired} and {@link
 * WorkerCrashed} of real Python workers ({@link WorkerFixture}), their fields, the thread each is
 * delivered on, their log lines, and a throwing listener that changes nothing.
 */
class WorkerEventsTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);

  /** One delivered event and the name of the thread it was delivered on. */
  record Heard(LoopxEvent event, String thread) {}

  @TempDir Path tmp;
  private final List<Heard> heard = new CopyOnWriteArrayList<>();
  private final CapturingLogger log = new CapturingLogger();
  private final List<Loopx> opened = new ArrayList<>();
  private Path dir;
  private Revision revision;

  @AfterEach
  void closeAll() {
    opened.forEach(Loopx::close);
  }

  private Loopx installed(int timeoutSeconds, String workerTable, LoopxListener... more)
      throws IOException {
    dir = tmp.resolve("warm");
    WorkerFixture.write(dir, "1.0.0", timeoutSeconds, workerTable);
    Loopx.Builder b =
        Loopx.builder()
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .domainPolicy(DomainPolicy.allowAll())
            .builtin(new DispatchTest.Contract())
            .logger(log);
    for (LoopxListener l : more) {
      b.listener(l);
    }
    b.listener(e -> heard.add(new Heard(e, Thread.currentThread().getName())));
    Loopx loopx = b.build();
    opened.add(loopx);
    revision = loopx.install(WorkerFixture.load(dir), Mode.EXECUTE).revision();
    return loopx;
  }

  private static DispatchReceipt dispatch(Loopx loopx, String tag) {
    return loopx.dispatch(DispatchTest.request().input(request(tag, "")).build(), Mode.EXECUTE);
  }

  private <T extends LoopxEvent> List<Heard> heard(Class<T> type) {
    return heard.stream().filter(h -> type.isInstance(h.event())).toList();
  }

  private <T extends LoopxEvent> Heard awaitOne(Class<T> type, long pid) {
    assertThat(eventually(SAFETY, () -> !of(type, pid).isEmpty()))
        .as("a %s of pid %d; heard %s", type.getSimpleName(), pid, heard)
        .isTrue();
    List<Heard> found = of(type, pid);
    assertThat(found).as("exactly one %s of pid %d", type.getSimpleName(), pid).hasSize(1);
    return found.get(0);
  }

  private <T extends LoopxEvent> List<Heard> of(Class<T> type, long pid) {
    return heard(type).stream().filter(h -> pidOf(h.event()) == pid).toList();
  }

  private static long pidOf(LoopxEvent e) {
    if (e instanceof WorkerSpawned s) {
      return s.pid();
    }
    if (e instanceof WorkerRetired r) {
      return r.pid();
    }
    if (e instanceof WorkerCrashed c) {
      return c.pid();
    }
    return -1;
  }

  private int indexOf(Heard h) {
    return heard.indexOf(h);
  }

  @Test
  void aWorkerIsSpawnedOnTheCallingThreadAndRetiredRecycledThenIdleOnTheStopThread()
      throws IOException {
    Loopx loopx = installed(10, "[runtime.worker]\nmax_requests = 2\nidle_seconds = 3\n");
    String caller = Thread.currentThread().getName();
    long first = pid(dispatch(loopx, "a"));
    assertThat(pid(dispatch(loopx, "b"))).isEqualTo(first);
    long second = pid(dispatch(loopx, "c"));
    assertThat(second).isNotEqualTo(first);

    Heard spawned = awaitOne(WorkerSpawned.class, first);
    WorkerSpawned s = (WorkerSpawned) spawned.event();
    assertThat(s.extensionId()).isEqualTo(WorkerFixture.ID);
    assertThat(s.revision()).isEqualTo(revision);
    assertThat(s.startDuration()).isPositive();
    assertThat(spawned.thread()).isEqualTo(caller);

    Heard recycled = awaitOne(WorkerRetired.class, first);
    WorkerRetired r = (WorkerRetired) recycled.event();
    assertThat(r.reason()).isEqualTo(WorkerRetireReason.RECYCLED);
    assertThat(r.requestsServed()).isEqualTo(2);
    assertThat(r.revision()).isEqualTo(revision);
    assertThat(r.lifetime()).isGreaterThan(s.startDuration());
    assertThat(recycled.thread()).isEqualTo("loopx-worker-stop");
    assertThat(indexOf(recycled)).isGreaterThan(indexOf(spawned));

    Heard idle = awaitOne(WorkerRetired.class, second);
    assertThat(((WorkerRetired) idle.event()).reason()).isEqualTo(WorkerRetireReason.IDLE);
    assertThat(((WorkerRetired) idle.event()).requestsServed()).isEqualTo(1);
    assertThat(idle.thread()).isEqualTo("loopx-worker-stop");
    assertThat(heard(WorkerSpawned.class)).hasSize(2);
    assertThat(heard(WorkerCrashed.class)).isEmpty();

    assertThat(log.at(Level.DEBUG))
        .anyMatch(
            l ->
                l.startsWith(
                    "loopx: worker warm-recall " + revision + " pid " + first + " spawned"))
        .anyMatch(
            l ->
                l.startsWith(
                    "loopx: worker warm-recall "
                        + revision
                        + " pid "
                        + first
                        + " retired (recycled) after 2 requests in "));
  }

  @Test
  void aLifecycleChangeAndCloseRetireTheirWorkers() throws IOException {
    Loopx loopx = installed(10, "[runtime.worker]\n");
    long first = pid(dispatch(loopx, "a"));
    loopx.disable(WorkerFixture.ID, Mode.EXECUTE);
    WorkerRetired lifecycle = (WorkerRetired) awaitOne(WorkerRetired.class, first).event();
    assertThat(lifecycle.reason()).isEqualTo(WorkerRetireReason.LIFECYCLE);
    assertThat(lifecycle.requestsServed()).isEqualTo(1);

    loopx.enable(WorkerFixture.ID, Mode.EXECUTE);
    long second = pid(dispatch(loopx, "b"));
    loopx.close();
    WorkerRetired closed = (WorkerRetired) awaitOne(WorkerRetired.class, second).event();
    assertThat(closed.reason()).isEqualTo(WorkerRetireReason.CLOSED);
    assertThat(heard(WorkerRetired.class)).hasSize(2);
    assertThat(WorkerFixture.descendants()).isEmpty();
  }

  @Test
  void aWorkerThatExitsOnItsOwnCrashesWithItsExitCodeOnItsReaderThread() throws IOException {
    Loopx loopx = installed(10, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "exit");
    DispatchReceipt receipt = dispatch(loopx, "a");
    assertThat(receipt.outcome().failure()).contains(RunFailure.WORKER_TERMINATED);
    WorkerSpawned spawned = (WorkerSpawned) heard(WorkerSpawned.class).get(0).event();

    Heard crash = awaitOne(WorkerCrashed.class, spawned.pid());
    WorkerCrashed c = (WorkerCrashed) crash.event();
    assertThat(c.extensionId()).isEqualTo(WorkerFixture.ID);
    assertThat(c.revision()).isEqualTo(revision);
    assertThat(c.failure()).isEqualTo(RunFailure.WORKER_TERMINATED);
    assertThat(c.exitCode()).isEqualTo(OptionalInt.of(3));
    assertThat(c.requestsServed()).isZero();
    assertThat(crash.thread()).startsWith("loopx-worker-" + spawned.pid() + "-");
    assertThat(heard(WorkerRetired.class)).isEmpty();
    assertThat(log.at(Level.WARNING))
        .anyMatch(
            l ->
                l.startsWith(
                    "loopx: worker warm-recall "
                        + revision
                        + " pid "
                        + spawned.pid()
                        + " crashed (worker_terminated, exit 3) after 0 requests in "));
  }

  @Test
  void aFailedHandshakeIsACrashWithoutSpawn() throws IOException {
    Loopx loopx = installed(5, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "refuse");
    assertThat(dispatch(loopx, "a").outcome().failure())
        .contains(RunFailure.WORKER_HANDSHAKE_FAILED);
    assertThat(eventually(SAFETY, () -> heard(WorkerCrashed.class).size() == 1)).isTrue();
    WorkerCrashed refused = (WorkerCrashed) heard(WorkerCrashed.class).get(0).event();
    assertThat(refused.failure()).isEqualTo(RunFailure.WORKER_HANDSHAKE_FAILED);
    assertThat(refused.exitCode()).as("LoopX killed it").isEmpty();

    // A worker that exits before its handshake: the exit code is known.
    WorkerFixture.mode(dir, "exit-at-start");
    assertThat(dispatch(loopx, "b").outcome().failure())
        .contains(RunFailure.WORKER_HANDSHAKE_FAILED);
    assertThat(eventually(SAFETY, () -> heard(WorkerCrashed.class).size() == 2)).isTrue();
    WorkerCrashed exited = (WorkerCrashed) heard(WorkerCrashed.class).get(1).event();
    assertThat(exited.failure()).isEqualTo(RunFailure.WORKER_HANDSHAKE_FAILED);
    assertThat(exited.exitCode()).isEqualTo(OptionalInt.of(4));
    assertThat(exited.pid()).isNotEqualTo(refused.pid());
    assertThat(heard(WorkerSpawned.class)).isEmpty();
    assertThat(heard(WorkerRetired.class)).isEmpty();
  }

  @Test
  void protocolBreachesAndTimeoutsRetireWithTheirReason() throws IOException {
    Loopx loopx = installed(10, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "malformed");
    dispatch(loopx, "a");
    Heard malformed = heard(WorkerSpawned.class).get(0);
    long pid = ((WorkerSpawned) malformed.event()).pid();
    Heard retired = awaitOne(WorkerRetired.class, pid);
    assertThat(((WorkerRetired) retired.event()).reason())
        .isEqualTo(WorkerRetireReason.MALFORMED_FRAME);
    assertThat(retired.thread()).isEqualTo("loopx-worker-" + pid + "-stdout");
    assertThat(log.at(Level.WARNING)).anyMatch(l -> l.contains(" retired (malformed_frame) "));

    WorkerFixture.mode(dir, "twice");
    long twice = pid(dispatch(loopx, "b"));
    WorkerRetired second = (WorkerRetired) awaitOne(WorkerRetired.class, twice).event();
    assertThat(second.reason()).isEqualTo(WorkerRetireReason.UNKNOWN_RESPONSE);
    assertThat(second.requestsServed()).isEqualTo(1);

    WorkerFixture.mode(dir, "big");
    DispatchReceipt big = dispatch(loopx, "c");
    assertThat(big.outcome().failure()).contains(RunFailure.RESPONSE_TOO_LARGE);
    List<Heard> spawned = heard(WorkerSpawned.class);
    long large = ((WorkerSpawned) spawned.get(spawned.size() - 1).event()).pid();
    WorkerRetired third = (WorkerRetired) awaitOne(WorkerRetired.class, large).event();
    assertThat(third.reason()).isEqualTo(WorkerRetireReason.RESPONSE_TOO_LARGE);
    assertThat(log.at(Level.WARNING)).anyMatch(l -> l.contains(" retired (response_too_large) "));
    assertThat(heard(WorkerCrashed.class)).isEmpty();
  }

  @Test
  void aTimeoutRetiresTheWorkerOnTheCallingThread() throws IOException {
    Loopx loopx = installed(2, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "hang");
    String caller = Thread.currentThread().getName();
    assertThat(dispatch(loopx, "c").outcome().failure()).contains(RunFailure.TIMEOUT);
    Heard spawnedHang = heard(WorkerSpawned.class).get(0);
    long hung = ((WorkerSpawned) spawnedHang.event()).pid();
    Heard timeout = awaitOne(WorkerRetired.class, hung);
    assertThat(((WorkerRetired) timeout.event()).reason()).isEqualTo(WorkerRetireReason.TIMEOUT);
    assertThat(timeout.thread()).isEqualTo(caller);
    assertThat(heard(WorkerCrashed.class)).isEmpty();
  }

  @Test
  void anInterruptedRequestRetiresItsWorkerCancelledOnThatThread() throws Exception {
    Loopx loopx = installed(30, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "hang");
    AtomicReference<DispatchReceipt> receipt = new AtomicReference<>();
    Thread caller = new Thread(() -> receipt.set(dispatch(loopx, "victim")), "interrupted-caller");
    caller.start();
    WorkerFixture.awaitSeen(dir, "victim");
    caller.interrupt();
    caller.join(SAFETY.toMillis());
    assertThat(caller.isAlive()).isFalse();
    assertThat(receipt.get().outcome().failure()).contains(RunFailure.CANCELLED);
    long pid = ((WorkerSpawned) heard(WorkerSpawned.class).get(0).event()).pid();
    Heard cancelled = awaitOne(WorkerRetired.class, pid);
    assertThat(((WorkerRetired) cancelled.event()).reason())
        .isEqualTo(WorkerRetireReason.CANCELLED);
    assertThat(cancelled.thread()).isEqualTo("interrupted-caller");
    assertThat(log.at(Level.INFO)).anyMatch(l -> l.contains(" retired (cancelled) after 0 "));
  }

  @Test
  void aListenerThatThrowsOnWorkerEventsChangesNothingAndIsLoggedOnce() throws IOException {
    LoopxListener thrower =
        e -> {
          if (e instanceof WorkerSpawned || e instanceof WorkerRetired) {
            throw new IllegalStateException("listener bug");
          }
        };
    Loopx loopx = installed(10, "[runtime.worker]\nmax_requests = 1\n", thrower);
    long first = pid(dispatch(loopx, "a"));
    DispatchReceipt next = dispatch(loopx, "b");
    assertThat(next.ok()).isTrue();
    assertThat(pid(next)).isNotEqualTo(first);
    awaitOne(WorkerRetired.class, first);
    // The later listener still heard every event.
    assertThat(heard(WorkerSpawned.class)).hasSize(2);
    List<String> warnings =
        log.at(Level.WARNING).stream().filter(l -> l.contains("listener")).toList();
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0)).contains("threw on WorkerSpawned");
  }
}
