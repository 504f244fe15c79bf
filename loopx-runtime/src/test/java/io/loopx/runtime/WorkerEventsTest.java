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
import io.loopx.runtime.events.WorkerEvent;
import io.loopx.runtime.events.WorkerEvent.Reason;
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
 * The worker events (docs/observing.md): the {@link WorkerEvent}s of real Python workers ({@link
 * WorkerFixture}) as they spawn, are retired and crash, their fields, the thread each is delivered
 * on, their log lines, and a throwing listener that changes nothing.
 */
class WorkerEventsTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);

  /** One delivered event and the name of the thread it was delivered on. */
  record Heard(LoopxEvent event, String thread) {
    WorkerEvent worker() {
      return (WorkerEvent) event;
    }
  }

  /** A worker event's kind: it spawned, LoopX retired it (any other reason) or it crashed. */
  enum Kind {
    SPAWNED,
    RETIRED,
    CRASHED;

    boolean of(LoopxEvent e) {
      return e instanceof WorkerEvent w
          && this
              == switch (w.reason()) {
                case SPAWNED -> SPAWNED;
                case CRASHED -> CRASHED;
                default -> RETIRED;
              };
    }
  }

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
    revision = loopx.install(WorkerFixture.load(dir), Mode.EXECUTE).revision().orElseThrow();
    return loopx;
  }

  private static DispatchReceipt dispatch(Loopx loopx, String tag) {
    return loopx.dispatch(DispatchTest.request().input(request(tag, "")).build(), Mode.EXECUTE);
  }

  private List<Heard> heard(Kind kind) {
    return heard.stream().filter(h -> kind.of(h.event())).toList();
  }

  private Heard awaitOne(Kind kind, long pid) {
    assertThat(eventually(SAFETY, () -> !of(kind, pid).isEmpty()))
        .as("a %s of pid %d; heard %s", kind, pid, heard)
        .isTrue();
    List<Heard> found = of(kind, pid);
    assertThat(found).as("exactly one %s of pid %d", kind, pid).hasSize(1);
    return found.get(0);
  }

  private List<Heard> of(Kind kind, long pid) {
    return heard(kind).stream().filter(h -> h.worker().pid() == pid).toList();
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

    Heard spawned = awaitOne(Kind.SPAWNED, first);
    WorkerEvent s = spawned.worker();
    assertThat(s.extensionId()).isEqualTo(WorkerFixture.ID);
    assertThat(s.revision()).isEqualTo(revision);
    assertThat(s.reason()).isEqualTo(Reason.SPAWNED);
    assertThat(s.duration()).isPositive();
    assertThat(s.requestsServed()).isZero();
    assertThat(s.exitCode()).isEmpty();
    assertThat(s.failure()).isEmpty();
    assertThat(spawned.thread()).isEqualTo(caller);

    Heard recycled = awaitOne(Kind.RETIRED, first);
    WorkerEvent r = recycled.worker();
    assertThat(r.reason()).isEqualTo(Reason.RECYCLED);
    assertThat(r.requestsServed()).isEqualTo(2);
    assertThat(r.revision()).isEqualTo(revision);
    assertThat(r.duration()).isGreaterThan(s.duration());
    assertThat(r.exitCode()).isEmpty();
    assertThat(r.failure()).isEmpty();
    assertThat(recycled.thread()).isEqualTo("loopx-worker-stop");
    assertThat(indexOf(recycled)).isGreaterThan(indexOf(spawned));

    Heard idle = awaitOne(Kind.RETIRED, second);
    assertThat(idle.worker().reason()).isEqualTo(Reason.IDLE);
    assertThat(idle.worker().requestsServed()).isEqualTo(1);
    assertThat(idle.thread()).isEqualTo("loopx-worker-stop");
    assertThat(heard(Kind.SPAWNED)).hasSize(2);
    assertThat(heard(Kind.CRASHED)).isEmpty();

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
    WorkerEvent lifecycle = awaitOne(Kind.RETIRED, first).worker();
    assertThat(lifecycle.reason()).isEqualTo(Reason.LIFECYCLE);
    assertThat(lifecycle.requestsServed()).isEqualTo(1);

    loopx.enable(WorkerFixture.ID, Mode.EXECUTE);
    long second = pid(dispatch(loopx, "b"));
    loopx.close();
    WorkerEvent closed = awaitOne(Kind.RETIRED, second).worker();
    assertThat(closed.reason()).isEqualTo(Reason.CLOSED);
    assertThat(heard(Kind.RETIRED)).hasSize(2);
    assertThat(WorkerFixture.descendants()).isEmpty();
  }

  @Test
  void aWorkerThatExitsOnItsOwnCrashesWithItsExitCodeOnItsReaderThread() throws IOException {
    Loopx loopx = installed(10, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "exit");
    DispatchReceipt receipt = dispatch(loopx, "a");
    assertThat(receipt.outcome().failure()).contains(RunFailure.WORKER_TERMINATED);
    WorkerEvent spawned = heard(Kind.SPAWNED).get(0).worker();

    Heard crash = awaitOne(Kind.CRASHED, spawned.pid());
    WorkerEvent c = crash.worker();
    assertThat(c.reason()).isEqualTo(Reason.CRASHED);
    assertThat(c.extensionId()).isEqualTo(WorkerFixture.ID);
    assertThat(c.revision()).isEqualTo(revision);
    assertThat(c.failure()).contains(RunFailure.WORKER_TERMINATED);
    assertThat(c.exitCode()).isEqualTo(OptionalInt.of(3));
    assertThat(c.requestsServed()).isZero();
    assertThat(crash.thread()).startsWith("loopx-worker-" + spawned.pid() + "-");
    assertThat(heard(Kind.RETIRED)).isEmpty();
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
    assertThat(eventually(SAFETY, () -> heard(Kind.CRASHED).size() == 1)).isTrue();
    WorkerEvent refused = heard(Kind.CRASHED).get(0).worker();
    assertThat(refused.failure()).contains(RunFailure.WORKER_HANDSHAKE_FAILED);
    assertThat(refused.exitCode()).as("LoopX killed it").isEmpty();

    // A worker that exits before its handshake: the exit code is known.
    WorkerFixture.mode(dir, "exit-at-start");
    assertThat(dispatch(loopx, "b").outcome().failure())
        .contains(RunFailure.WORKER_HANDSHAKE_FAILED);
    assertThat(eventually(SAFETY, () -> heard(Kind.CRASHED).size() == 2)).isTrue();
    WorkerEvent exited = heard(Kind.CRASHED).get(1).worker();
    assertThat(exited.failure()).contains(RunFailure.WORKER_HANDSHAKE_FAILED);
    assertThat(exited.exitCode()).isEqualTo(OptionalInt.of(4));
    assertThat(exited.pid()).isNotEqualTo(refused.pid());
    assertThat(heard(Kind.SPAWNED)).isEmpty();
    assertThat(heard(Kind.RETIRED)).isEmpty();
  }

  @Test
  void protocolBreachesAndTimeoutsRetireWithTheirReason() throws IOException {
    Loopx loopx = installed(10, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "malformed");
    dispatch(loopx, "a");
    Heard malformed = heard(Kind.SPAWNED).get(0);
    long pid = malformed.worker().pid();
    Heard retired = awaitOne(Kind.RETIRED, pid);
    assertThat(retired.worker().reason()).isEqualTo(Reason.MALFORMED_FRAME);
    assertThat(retired.thread()).isEqualTo("loopx-worker-" + pid + "-stdout");
    assertThat(log.at(Level.WARNING)).anyMatch(l -> l.contains(" retired (malformed_frame) "));

    WorkerFixture.mode(dir, "twice");
    long twice = pid(dispatch(loopx, "b"));
    WorkerEvent second = awaitOne(Kind.RETIRED, twice).worker();
    assertThat(second.reason()).isEqualTo(Reason.UNKNOWN_RESPONSE);
    assertThat(second.requestsServed()).isEqualTo(1);

    WorkerFixture.mode(dir, "big");
    DispatchReceipt big = dispatch(loopx, "c");
    assertThat(big.outcome().failure()).contains(RunFailure.RESPONSE_TOO_LARGE);
    List<Heard> spawned = heard(Kind.SPAWNED);
    long large = spawned.get(spawned.size() - 1).worker().pid();
    WorkerEvent third = awaitOne(Kind.RETIRED, large).worker();
    assertThat(third.reason()).isEqualTo(Reason.RESPONSE_TOO_LARGE);
    assertThat(log.at(Level.WARNING)).anyMatch(l -> l.contains(" retired (response_too_large) "));
    assertThat(heard(Kind.CRASHED)).isEmpty();
  }

  @Test
  void aTimeoutRetiresTheWorkerOnTheCallingThread() throws IOException {
    Loopx loopx = installed(2, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "hang");
    String caller = Thread.currentThread().getName();
    assertThat(dispatch(loopx, "c").outcome().failure()).contains(RunFailure.TIMEOUT);
    Heard spawnedHang = heard(Kind.SPAWNED).get(0);
    long hung = spawnedHang.worker().pid();
    Heard timeout = awaitOne(Kind.RETIRED, hung);
    assertThat(timeout.worker().reason()).isEqualTo(Reason.TIMEOUT);
    assertThat(timeout.thread()).isEqualTo(caller);
    assertThat(heard(Kind.CRASHED)).isEmpty();
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
    long pid = heard(Kind.SPAWNED).get(0).worker().pid();
    Heard cancelled = awaitOne(Kind.RETIRED, pid);
    assertThat(cancelled.worker().reason()).isEqualTo(Reason.CANCELLED);
    assertThat(cancelled.thread()).isEqualTo("interrupted-caller");
    assertThat(log.at(Level.INFO)).anyMatch(l -> l.contains(" retired (cancelled) after 0 "));
  }

  @Test
  void aListenerThatThrowsOnWorkerEventsChangesNothingAndIsLoggedOnce() throws IOException {
    LoopxListener thrower =
        e -> {
          if (e instanceof WorkerEvent w && w.reason() != Reason.CRASHED) {
            throw new IllegalStateException("listener bug");
          }
        };
    Loopx loopx = installed(10, "[runtime.worker]\nmax_requests = 1\n", thrower);
    long first = pid(dispatch(loopx, "a"));
    DispatchReceipt next = dispatch(loopx, "b");
    assertThat(next.ok()).isTrue();
    assertThat(pid(next)).isNotEqualTo(first);
    awaitOne(Kind.RETIRED, first);
    // The later listener still heard every event.
    assertThat(heard(Kind.SPAWNED)).hasSize(2);
    List<String> warnings =
        log.at(Level.WARNING).stream().filter(l -> l.contains("listener")).toList();
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0)).contains("threw on WorkerEvent");
  }
}
