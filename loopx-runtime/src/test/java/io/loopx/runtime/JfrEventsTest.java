package io.loopx.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.events.LoopxEvent;
import io.loopx.runtime.events.WorkerEvent;
import io.loopx.runtime.events.WorkerEvent.Reason;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JFR round trip: record in process, read the LoopX events back (docs/observing.md), worker
 * events included (real Python workers of {@link WorkerFixture}).
 */
class JfrEventsTest {
  static final List<String> NAMES =
      List.of(
          "io.loopx.Dispatch", "io.loopx.Run", "io.loopx.DoctorProbe", "io.loopx.LifecycleWrite");

  static final List<String> WORKER_NAMES =
      List.of("io.loopx.WorkerSpawn", "io.loopx.WorkerRetire", "io.loopx.WorkerCrash");

  @TempDir Path tmp;

  @Test
  void dispatchRunProbeAndWriteAreRecordedWithDurationsAndIds() throws Exception {
    DispatchTest fixture = new DispatchTest();
    fixture.tmp = tmp;
    Path dir = fixture.provider("demo-provider", "[\"demo.read\"]", "[\"demo.read\"]");
    Loopx loopx =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .builtin(new DispatchTest.Contract())
            .domainPolicy(DomainPolicy.allowAll())
            .build();
    ObservingTest solo = new ObservingTest();
    solo.tmp = tmp;
    Path soloDir = solo.soloPackage();
    byte[] request = "{\"schema_version\":\"demo_request_v0\"}".getBytes(UTF_8);
    Path file = tmp.resolve("loopx.jfr");
    String revision;

    try (Recording recording = new Recording()) {
      NAMES.forEach(n -> recording.enable(n).withoutThreshold());
      recording.start();
      revision = installed(loopx, dir);
      loopx.dispatch(DispatchTest.request().input(request).build(), Mode.EXECUTE);
      loopx.install(LoadedManifest.load(soloDir.resolve("extension.toml")), Mode.EXECUTE);
      loopx.run(RunRequest.of(ExtensionId.of("solo"), request), Mode.EXECUTE);
      recording.stop();
      recording.dump(file);
    }

    List<RecordedEvent> events =
        RecordingFile.readAllEvents(file).stream()
            .filter(e -> e.getEventType().getName().startsWith("io.loopx."))
            .toList();
    assertThat(events).extracting(e -> e.getEventType().getName()).containsAll(NAMES);
    assertThat(events).allSatisfy(e -> assertThat(e.getDuration()).isPositive());

    RecordedEvent dispatch = first(events, "io.loopx.Dispatch");
    assertThat(dispatch.getString("capability")).isEqualTo("demo-recall");
    assertThat(dispatch.getString("protocol")).isEqualTo("demo_recall_v0");
    assertThat(dispatch.getString("action")).isEqualTo("demo.recall");
    assertThat(dispatch.getString("provider")).isEqualTo("demo-provider");
    assertThat(dispatch.getString("revision")).isEqualTo(revision);
    assertThat(dispatch.getBoolean("preview")).isFalse();
    assertThat(dispatch.getString("outcome")).isEqualTo("succeeded");

    RecordedEvent probe = first(events, "io.loopx.DoctorProbe");
    assertThat(probe.getString("extension")).isEqualTo("demo-provider");
    assertThat(probe.getString("revision")).isEqualTo(revision);
    assertThat(probe.getString("outcome")).isEqualTo("passed");

    RecordedEvent write = first(events, "io.loopx.LifecycleWrite");
    assertThat(write.getString("operation")).isEqualTo("install");
    assertThat(write.getString("extensions")).isEqualTo("demo-provider");
    assertThat(write.getString("outcome")).isEqualTo("written");

    RecordedEvent run = first(events, "io.loopx.Run");
    assertThat(run.getString("extension")).isEqualTo("solo");
    assertThat(run.getString("outcome")).isEqualTo("succeeded");
  }

  @Test
  void workerSpawnRetireAndCrashAreRecordedWithDurationsAndIds() throws Exception {
    Path dir = tmp.resolve("warm");
    WorkerFixture.write(dir, "1.0.0", 10, "[runtime.worker]\nmax_requests = 1\n");
    List<LoopxEvent> heard = new CopyOnWriteArrayList<>();
    Path file = tmp.resolve("workers.jfr");
    long recycled;
    long crashed;
    String revision;
    try (Loopx loopx =
            Loopx.builder()
                .isolation(IsolationPolicy.OFF)
                .runtimeRoot(tmp.resolve("root"))
                .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
                .builtin(new DispatchTest.Contract())
                .domainPolicy(DomainPolicy.allowAll())
                .listener(heard::add)
                .build();
        Recording recording = new Recording()) {
      WORKER_NAMES.forEach(n -> recording.enable(n).withoutThreshold());
      recording.start();
      revision =
          loopx.install(WorkerFixture.load(dir), Mode.EXECUTE).revision().orElseThrow().value();
      byte[] request = WorkerFixture.request("a", "");
      recycled =
          WorkerFixture.pid(
              loopx.dispatch(DispatchTest.request().input(request).build(), Mode.EXECUTE));
      WorkerFixture.mode(dir, "exit");
      loopx.dispatch(
          DispatchTest.request().input(WorkerFixture.request("b", "")).build(), Mode.EXECUTE);
      // The listener hears each end after its JFR event was committed.
      assertThat(
              WorkerFixture.eventually(
                  Duration.ofSeconds(30),
                  () ->
                      heard.stream().anyMatch(JfrEventsTest::retired)
                          && heard.stream().anyMatch(e -> is(e, Reason.CRASHED))))
          .isTrue();
      crashed =
          heard.stream()
              .filter(e -> is(e, Reason.CRASHED))
              .map(e -> ((WorkerEvent) e).pid())
              .findFirst()
              .orElseThrow();
      recording.stop();
      recording.dump(file);
    }

    List<RecordedEvent> events =
        RecordingFile.readAllEvents(file).stream()
            .filter(e -> e.getEventType().getName().startsWith("io.loopx.Worker"))
            .toList();
    assertThat(events).allSatisfy(e -> assertThat(e.getDuration()).isPositive());
    List<RecordedEvent> spawns = all(events, "io.loopx.WorkerSpawn");
    assertThat(spawns)
        .extracting(e -> e.getLong("pid"))
        .containsExactlyInAnyOrder(recycled, crashed);
    long recycledPid = recycled;
    RecordedEvent firstSpawn =
        spawns.stream().filter(e -> e.getLong("pid") == recycledPid).findFirst().orElseThrow();
    assertThat(spawns)
        .allSatisfy(e -> assertThat(e.getString("extension")).isEqualTo("warm-recall"));
    assertThat(spawns).allSatisfy(e -> assertThat(e.getString("revision")).isEqualTo(revision));

    RecordedEvent retire = first(events, "io.loopx.WorkerRetire");
    assertThat(all(events, "io.loopx.WorkerRetire")).hasSize(1);
    assertThat(retire.getString("extension")).isEqualTo("warm-recall");
    assertThat(retire.getString("revision")).isEqualTo(revision);
    assertThat(retire.getLong("pid")).isEqualTo(recycled);
    assertThat(retire.getString("reason")).isEqualTo("recycled");
    assertThat(retire.getLong("served")).isEqualTo(1);
    // Its duration is the worker's life: its start, then the request, then its stop.
    assertThat(retire.getDuration()).isGreaterThan(firstSpawn.getDuration());
    assertThat(retire.getEndTime()).isAfter(firstSpawn.getEndTime());

    RecordedEvent crash = first(events, "io.loopx.WorkerCrash");
    assertThat(all(events, "io.loopx.WorkerCrash")).hasSize(1);
    assertThat(crash.getString("extension")).isEqualTo("warm-recall");
    assertThat(crash.getString("revision")).isEqualTo(revision);
    assertThat(crash.getLong("pid")).isEqualTo(crashed);
    assertThat(crash.getString("failure")).isEqualTo("worker_terminated");
    assertThat(crash.getInt("exitCode")).isEqualTo(3);
    assertThat(crash.getLong("served")).isZero();
  }

  /** Whether {@code e} is a worker event of {@code reason}. */
  private static boolean is(LoopxEvent e, Reason reason) {
    return e instanceof WorkerEvent w && w.reason() == reason;
  }

  /** Whether {@code e} is a worker event of LoopX ending a worker (neither spawn nor crash). */
  private static boolean retired(LoopxEvent e) {
    return e instanceof WorkerEvent w
        && w.reason() != Reason.SPAWNED
        && w.reason() != Reason.CRASHED;
  }

  private static List<RecordedEvent> all(List<RecordedEvent> events, String name) {
    return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
  }

  private static String installed(Loopx loopx, Path dir) {
    return loopx
        .install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE)
        .revision()
        .orElseThrow()
        .value();
  }

  private static RecordedEvent first(List<RecordedEvent> events, String name) {
    return events.stream()
        .filter(e -> e.getEventType().getName().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
