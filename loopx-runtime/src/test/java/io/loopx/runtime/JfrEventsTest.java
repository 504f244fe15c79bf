package io.loopx.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JFR round trip: record in process, read the LoopX events back (docs/observing.md). */
class JfrEventsTest {
  static final List<String> NAMES =
      List.of(
          "io.loopx.Dispatch", "io.loopx.Run", "io.loopx.DoctorProbe", "io.loopx.LifecycleWrite");

  @TempDir Path tmp;

  @Test
  void dispatchRunProbeAndWriteAreRecordedWithDurationsAndIds() throws Exception {
    DispatchTest fixture = new DispatchTest();
    fixture.tmp = tmp;
    Path dir = fixture.provider("demo-provider", "[\"demo.read\"]", "[\"demo.read\"]");
    Loopx loopx =
        Loopx.builder()
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
      loopx.dispatch(DispatchTest.request(), request, Mode.EXECUTE);
      loopx.install(LoadedManifest.load(soloDir.resolve("extension.toml")), Mode.EXECUTE);
      loopx.run(ExtensionId.of("solo"), request, Mode.EXECUTE);
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

  private static String installed(Loopx loopx, Path dir) {
    return loopx
        .install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE)
        .revision()
        .value();
  }

  private static RecordedEvent first(List<RecordedEvent> events, String name) {
    return events.stream()
        .filter(e -> e.getEventType().getName().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
