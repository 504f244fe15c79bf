package io.loopx.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.ProviderId;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.events.CallObserver;
import io.loopx.runtime.events.ObservedCall;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.spi.Containment;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The host's call observers (docs/observing.md#call-observers): names, tags and their values,
 * nesting and order, isolation of a throwing observer; with real one-shot and warm-worker provider
 * processes.
 */
class CallObserverTest {
  static final List<String> DISPATCH_KEYS =
      List.of(
          "capability",
          "protocol",
          "action",
          "extension",
          "mode",
          "path",
          "containment",
          "outcome",
          "failure");
  static final List<String> RUN_KEYS =
      List.of("extension", "mode", "path", "containment", "outcome", "failure");
  static final List<String> DOCTOR_KEYS = List.of("extension", "operation", "outcome", "failure");
  static final List<String> LIFECYCLE_KEYS = List.of("operation", "extension", "mode", "outcome");

  @TempDir Path tmp;
  final DispatchTest host = new DispatchTest();
  final CapturingLogger log = new CapturingLogger();
  final Recorder recorder = new Recorder("rec");
  final List<Loopx> opened = new ArrayList<>();

  /** Records every begin and end, with the thread and the call as given. */
  static final class Recorder implements CallObserver {
    final String label;
    final List<String> order;
    final List<ObservedCall> begun = new ArrayList<>();
    final List<ObservedCall> ended = new ArrayList<>();
    final List<Thread> threads = new ArrayList<>();

    Recorder(String label) {
      this(label, new ArrayList<>());
    }

    Recorder(String label, List<String> order) {
      this.label = label;
      this.order = order;
    }

    @Override
    public Scope begin(ObservedCall call) {
      order.add(label + " begin " + call.name());
      begun.add(call);
      threads.add(Thread.currentThread());
      int index = begun.size() - 1;
      return end -> {
        order.add(label + " end " + end.name());
        ended.add(end);
        threads.add(Thread.currentThread());
        // Same name and key set (in order) at the end as at the begin.
        ObservedCall start = begun.get(index);
        assertThat(end.name()).isEqualTo(start.name());
        assertThat(List.copyOf(end.lowCardinalityTags().keySet()))
            .isEqualTo(List.copyOf(start.lowCardinalityTags().keySet()));
      };
    }

    /** The ended calls named {@code name}. */
    List<ObservedCall> ended(String name) {
      return ended.stream().filter(c -> c.name().equals(name)).toList();
    }

    /** The begun calls named {@code name}. */
    List<ObservedCall> begun(String name) {
      return begun.stream().filter(c -> c.name().equals(name)).toList();
    }
  }

  @BeforeEach
  void setUp() {
    host.tmp = tmp;
  }

  @AfterEach
  void closeAll() {
    opened.forEach(Loopx::close);
  }

  Loopx loopx(List<CallObserver> observers, BuiltinContribution... builtins) {
    Loopx.Builder b =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .logger(log)
            .domainPolicy(r -> host.policy.decide(r));
    for (CallObserver o : observers) {
      b.observer(o);
    }
    for (BuiltinContribution c : builtins) {
      b.builtin(c);
    }
    Loopx loopx = b.build();
    opened.add(loopx);
    return loopx;
  }

  Loopx loopx(BuiltinContribution... builtins) {
    return loopx(List.of(recorder), builtins);
  }

  static Map<String, String> tags(String... keysAndValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return m;
  }

  static Map<String, String> dispatchTags(
      String extension, String mode, String path, String containment, String outcome) {
    return dispatchTags(extension, mode, path, containment, outcome, "none");
  }

  static Map<String, String> dispatchTags(
      String extension,
      String mode,
      String path,
      String containment,
      String outcome,
      String failure) {
    return tags(
        "capability",
        "demo-recall",
        "protocol",
        "demo_recall_v0",
        "action",
        "demo.recall",
        "extension",
        extension,
        "mode",
        mode,
        "path",
        path,
        "containment",
        containment,
        "outcome",
        outcome,
        "failure",
        failure);
  }

  static String containment(Optional<Containment> c) {
    return c.map(Containment::wireName).orElse("none");
  }

  /** A built-in implementation of demo-recall that fails when {@code q} is {@code fail}. */
  static BuiltinContribution builtin() {
    return new BuiltinContribution() {
      @Override
      public String id() {
        return "demo-builtin";
      }

      @Override
      public void register(RegistrationContext context) {
        context.addCapability(DispatchTest.capability("demo-recall"));
        context.addImplementation(
            DispatchTest.CAP,
            DispatchTest.PROTOCOL,
            request -> {
              ObjectNode response = JsonNodeFactory.instance.objectNode();
              response.put("ok", !request.get("q").asString().equals("fail"));
              return response;
            });
      }
    };
  }

  DispatchReceipt dispatch(Loopx loopx, Mode mode) {
    return loopx.dispatch(DispatchTest.request().input(DispatchTest.REQUEST).build(), mode);
  }

  @Test
  void aBuiltinDispatchIsInProcessOnTheCallingThread() {
    Loopx loopx = loopx(builtin());

    DispatchReceipt receipt = dispatch(loopx, Mode.EXECUTE);
    DispatchReceipt failed =
        loopx.dispatch(
            DispatchTest.request().input("{\"q\":\"fail\"}".getBytes(UTF_8)).build(), Mode.EXECUTE);

    assertThat(recorder.order)
        .containsExactly(
            "rec begin loopx.dispatch",
            "rec end loopx.dispatch",
            "rec begin loopx.dispatch",
            "rec end loopx.dispatch");
    assertThat(recorder.threads).containsOnly(Thread.currentThread());
    ObservedCall start = recorder.begun.get(0);
    assertThat(start.lowCardinalityTags())
        .containsExactlyEntriesOf(dispatchTags("none", "execute", "none", "none", "none"));
    assertThat(start.highCardinalityTags()).isEmpty();
    assertThat(start.ended()).isFalse();
    assertThat(start.failed()).isFalse();
    assertThat(start.error()).isEmpty();
    ObservedCall end = recorder.ended.get(0);
    assertThat(end.lowCardinalityTags())
        .containsExactlyEntriesOf(
            dispatchTags("none", "execute", "in_process", "none", "succeeded"));
    assertThat(end.highCardinalityTags())
        .containsExactlyEntriesOf(
            tags("revision", receipt.revision().value(), "provider", "loopx-core"));
    assertThat(end.ended()).isTrue();
    assertThat(end.failed()).isFalse();
    assertThat(end.error()).isEmpty();
    ObservedCall failedEnd = recorder.ended.get(1);
    assertThat(failedEnd.lowCardinalityTags())
        .containsEntry("path", "in_process")
        .containsEntry("outcome", failed.outcome().status().wireName())
        .containsEntry("outcome", "provider_failed");
    assertThat(failedEnd.failed()).isTrue();
    assertThat(failedEnd.error()).isEmpty();
  }

  @Test
  void aOneShotProviderProcessAndItsInstallAreObserved() throws IOException {
    Loopx loopx = loopx(new DispatchTest.Contract());
    Path dir = host.provider("demo-provider", "[\"demo.read\"]", "[\"demo.read\"]");
    host.install(loopx, dir);
    recorder.order.clear();

    DispatchReceipt receipt = dispatch(loopx, Mode.EXECUTE);

    assertThat(receipt.ok()).isTrue();
    assertThat(receipt.outcome().exitCode()).hasValue(0); // a process ran
    assertThat(recorder.order)
        .containsExactly("rec begin loopx.dispatch", "rec end loopx.dispatch");
    ObservedCall end = recorder.ended("loopx.dispatch").get(0);
    String contained = containment(receipt.containment());
    assertThat(contained).isIn("cgroup_v2", "cgroup_v1", "process_group");
    assertThat(end.lowCardinalityTags())
        .containsExactlyEntriesOf(
            dispatchTags("demo-provider", "execute", "one_shot", contained, "succeeded"));
    assertThat(end.highCardinalityTags())
        .containsExactlyEntriesOf(
            tags("revision", receipt.revision().value(), "provider", "demo-provider"));
    assertThat(recorder.begun("loopx.dispatch").get(0).lowCardinalityTags())
        .containsExactlyEntriesOf(dispatchTags("none", "execute", "none", "none", "none"));
  }

  @Test
  void aWarmWorkerAnswerIsPathWorker() throws IOException {
    Path dir = tmp.resolve("warm");
    WorkerFixture.write(dir, "1.0.0", 10, "[runtime.worker]\n");
    Loopx loopx = loopx(new DispatchTest.Contract());
    loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);

    DispatchReceipt first =
        loopx.dispatch(
            DispatchTest.request().input(WorkerFixture.request("a", "")).build(), Mode.EXECUTE);
    DispatchReceipt oneShot =
        loopx.dispatch(
            DispatchTest.request().input(WorkerFixture.request("b", "")).oneShot().build(),
            Mode.EXECUTE);

    assertThat(first.ok()).as(first.toString()).isTrue();
    assertThat(first.outcome().exitCode()).isEmpty(); // a worker's answer has no exit code
    assertThat(WorkerFixture.result(oneShot).get("one_shot").booleanValue()).isTrue();
    List<ObservedCall> ends = recorder.ended("loopx.dispatch");
    assertThat(ends).hasSize(2);
    assertThat(ends.get(0).lowCardinalityTags())
        .containsExactlyEntriesOf(
            dispatchTags(
                "warm-recall", "execute", "worker", containment(first.containment()), "succeeded"));
    assertThat(ends.get(1).lowCardinalityTags()).containsEntry("path", "one_shot");
  }

  @Test
  void aRefusedDispatchEndsWithItsErrorAndWhatWasResolved() throws IOException {
    Loopx loopx = loopx(new DispatchTest.Contract());
    // Nothing implements demo-recall yet: refused before any provider was resolved.
    assertThatThrownBy(() -> dispatch(loopx, Mode.EXECUTE)).isInstanceOf(LoopxException.class);
    ObservedCall unresolved = recorder.ended("loopx.dispatch").get(0);
    ErrorKind kind = unresolved.error().orElseThrow();
    assertThat(unresolved.lowCardinalityTags())
        .containsExactlyEntriesOf(dispatchTags("none", "execute", "none", "none", kind.wireName()));
    assertThat(unresolved.highCardinalityTags()).isEmpty();
    assertThat(unresolved.failed()).isTrue();

    host.install(loopx, host.provider("demo-provider", "[\"demo.read\"]", "[\"demo.read\"]"));
    host.policy = DomainPolicy.denyAll();
    assertThatThrownBy(() -> dispatch(loopx, Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.POLICY_DENIED));
    ObservedCall denied = recorder.ended("loopx.dispatch").get(1);
    assertThat(denied.lowCardinalityTags())
        .containsExactlyEntriesOf(
            dispatchTags("demo-provider", "execute", "none", "none", "policy_denied"));
    assertThat(denied.highCardinalityTags()).containsKeys("revision", "provider");
    assertThat(denied.error()).contains(ErrorKind.POLICY_DENIED);
    assertThat(denied.failed()).isTrue();
    assertThat(denied.ended()).isTrue();

    host.policy = DomainPolicy.allowAll();
    assertThatThrownBy(
            () ->
                loopx.dispatch(
                    DispatchTest.request()
                        .permission(Permission.of("demo.write"))
                        .input(DispatchTest.REQUEST)
                        .build(),
                    Mode.PREVIEW))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.PERMISSION_DENIED));
    ObservedCall notDeclared = recorder.ended("loopx.dispatch").get(2);
    assertThat(notDeclared.lowCardinalityTags())
        .containsExactlyEntriesOf(
            dispatchTags("demo-provider", "preview", "none", "none", "permission_denied"));
    assertThat(notDeclared.error()).contains(ErrorKind.PERMISSION_DENIED);
  }

  @Test
  void previewsRunNothingAndAreObserved() throws IOException {
    Loopx loopx = loopx(new DispatchTest.Contract());
    Path dir = host.provider("demo-provider", "[\"demo.read\"]", "[\"demo.read\"]");
    LoadedManifest manifest = LoadedManifest.load(dir.resolve("extension.toml"));

    loopx.install(manifest, Mode.PREVIEW);
    assertThat(recorder.order)
        .as("a preview probes nothing: no loopx.doctor")
        .containsExactly("rec begin loopx.lifecycle", "rec end loopx.lifecycle");
    assertThat(recorder.ended.get(0).lowCardinalityTags())
        .containsExactlyEntriesOf(
            tags(
                "operation",
                "install",
                "extension",
                "demo-provider",
                "mode",
                "preview",
                "outcome",
                "ok"));

    host.install(loopx, dir);
    recorder.order.clear();
    DispatchReceipt receipt = dispatch(loopx, Mode.PREVIEW);
    assertThat(recorder.order)
        .containsExactly("rec begin loopx.dispatch", "rec end loopx.dispatch");
    ObservedCall end = recorder.ended("loopx.dispatch").get(0);
    assertThat(end.lowCardinalityTags())
        .containsExactlyEntriesOf(
            dispatchTags("demo-provider", "preview", "none", "none", "ready"));
    assertThat(end.highCardinalityTags())
        .containsEntry("revision", receipt.revision().value())
        .containsEntry("provider", "demo-provider");
    assertThat(end.failed()).isFalse();
    assertThat(Files.exists(dir.resolve("stdin.json"))).isFalse();
  }

  @Test
  void aRunIsObservedWithItsPathAndContainment() throws IOException {
    Loopx loopx = loopx();
    Path dir = tmp.resolve("demo-ext");
    LifecycleTest.writeProvider(dir, "1.0.0");
    loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);
    ExtensionId id = ExtensionId.of("demo-ext");
    byte[] input = "{\"schema_version\":\"demo_v0\",\"q\":1}".getBytes(UTF_8);
    recorder.order.clear();

    RunReceipt preview = loopx.run(RunRequest.of(id, input), Mode.PREVIEW);
    RunReceipt run = loopx.run(RunRequest.of(id, input), Mode.EXECUTE);
    assertThatThrownBy(() -> loopx.run(RunRequest.of(ExtensionId.of("ghost"), input), Mode.EXECUTE))
        .isInstanceOf(LoopxException.class);

    assertThat(run.ok()).as(run.toString()).isTrue();
    List<ObservedCall> ends = recorder.ended("loopx.run");
    assertThat(ends).hasSize(3);
    assertThat(recorder.begun("loopx.run").get(1).lowCardinalityTags())
        .containsExactlyEntriesOf(
            tags(
                "extension",
                "demo-ext",
                "mode",
                "execute",
                "path",
                "none",
                "containment",
                "none",
                "outcome",
                "none",
                "failure",
                "none"));
    assertThat(ends.get(0).lowCardinalityTags())
        .containsExactlyEntriesOf(
            tags(
                "extension",
                "demo-ext",
                "mode",
                "preview",
                "path",
                "none",
                "containment",
                "none",
                "outcome",
                "ready",
                "failure",
                "none"));
    assertThat(ends.get(0).highCardinalityTags())
        .containsExactlyEntriesOf(tags("revision", preview.revision().value()));
    assertThat(ends.get(1).lowCardinalityTags())
        .containsExactlyEntriesOf(
            tags(
                "extension",
                "demo-ext",
                "mode",
                "execute",
                "path",
                "one_shot",
                "containment",
                containment(run.containment()),
                "outcome",
                "succeeded",
                "failure",
                "none"));
    assertThat(ends.get(1).highCardinalityTags())
        .containsExactlyEntriesOf(tags("revision", run.revision().value()));
    assertThat(ends.get(2).lowCardinalityTags())
        .containsEntry("extension", "ghost")
        .containsEntry("outcome", "not_installed");
    assertThat(ends.get(2).highCardinalityTags()).isEmpty();
    assertThat(ends.get(2).error()).contains(ErrorKind.NOT_INSTALLED);
  }

  @Test
  void aRunOnAWarmWorkerIsPathWorker() throws IOException {
    // The fixture's worker as a standalone extension: no permission, no [[implements]].
    Path dir = tmp.resolve("warm-solo");
    WorkerFixture.write(dir, "1.0.0", 10, "[runtime.worker]\n");
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\nid = \"warm-solo\"\n"
            + "version = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + "[runtime]\nprotocol = \"demo_recall_v0\"\nentrypoint = \"bin/worker\"\n"
            + "doctor_args = [\"--doctor\"]\ntimeout_seconds = 10\n[runtime.worker]\n");
    Loopx loopx = loopx();
    loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);
    ExtensionId id = ExtensionId.of("warm-solo");

    RunReceipt warm = loopx.run(RunRequest.of(id, WorkerFixture.request("w", "")), Mode.EXECUTE);

    assertThat(warm.ok()).as(warm.toString()).isTrue();
    assertThat(warm.outcome().exitCode()).isEmpty(); // a worker's answer has no exit code
    WorkerFixture.awaitSeen(dir, "w"); // the worker itself noted the request
    ObservedCall end = recorder.ended("loopx.run").get(0);
    assertThat(end.lowCardinalityTags())
        .containsExactlyEntriesOf(
            tags(
                "extension",
                "warm-solo",
                "mode",
                "execute",
                "path",
                "worker",
                "containment",
                containment(warm.containment()),
                "outcome",
                "succeeded",
                "failure",
                "none"));
    assertThat(loopx.workerPools()).hasSize(1);
  }

  @Test
  void anInstallNestsItsDoctorAndAFailedProbeFailsBoth() throws IOException {
    Loopx loopx = loopx();
    Path dir = tmp.resolve("demo-ext");
    LifecycleTest.writeProvider(dir, "1.0.0");
    LoadedManifest manifest = LoadedManifest.load(dir.resolve("extension.toml"));

    LifecycleReceipt installed = loopx.install(manifest, Mode.EXECUTE);

    assertThat(recorder.order)
        .containsExactly(
            "rec begin loopx.lifecycle",
            "rec begin loopx.doctor",
            "rec end loopx.doctor",
            "rec end loopx.lifecycle");
    assertThat(recorder.threads).containsOnly(Thread.currentThread());
    ObservedCall doctor = recorder.ended("loopx.doctor").get(0);
    assertThat(recorder.begun("loopx.doctor").get(0).lowCardinalityTags())
        .containsExactlyEntriesOf(
            tags(
                "extension",
                "demo-ext",
                "operation",
                "install",
                "outcome",
                "none",
                "failure",
                "none"));
    assertThat(doctor.lowCardinalityTags())
        .containsExactlyEntriesOf(
            tags(
                "extension",
                "demo-ext",
                "operation",
                "install",
                "outcome",
                "ready",
                "failure",
                "none"));
    assertThat(doctor.highCardinalityTags()).containsExactlyEntriesOf(tags("version", "1.0.0"));
    assertThat(doctor.failed()).isFalse();
    ObservedCall lifecycle = recorder.ended("loopx.lifecycle").get(0);
    assertThat(lifecycle.lowCardinalityTags())
        .containsExactlyEntriesOf(
            tags(
                "operation",
                "install",
                "extension",
                "demo-ext",
                "mode",
                "execute",
                "outcome",
                "ok"));
    assertThat(lifecycle.highCardinalityTags())
        .containsExactlyEntriesOf(tags("revision", installed.revision().orElseThrow().value()));
    assertThat(recorder.begun("loopx.lifecycle").get(0).lowCardinalityTags())
        .containsEntry("outcome", "none");

    // A failing probe: the doctor call is not ready, the command throws doctor_not_ready.
    Files.writeString(dir.resolve("bin/fail"), "");
    recorder.order.clear();
    assertThatThrownBy(() -> loopx.enable(ExtensionId.of("demo-ext"), Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.DOCTOR_NOT_READY));
    assertThat(recorder.order)
        .containsExactly(
            "rec begin loopx.lifecycle",
            "rec begin loopx.doctor",
            "rec end loopx.doctor",
            "rec end loopx.lifecycle");
    ObservedCall notReady = recorder.ended("loopx.doctor").get(1);
    assertThat(notReady.lowCardinalityTags())
        .containsExactlyEntriesOf(
            tags(
                "extension",
                "demo-ext",
                "operation",
                "enable",
                "outcome",
                "provider_unavailable",
                "failure",
                "probe_nonzero_exit"));
    assertThat(notReady.failed()).isTrue();
    assertThat(notReady.error()).isEmpty();
    ObservedCall refused = recorder.ended("loopx.lifecycle").get(1);
    assertThat(refused.lowCardinalityTags())
        .containsEntry("operation", "enable")
        .containsEntry("outcome", "doctor_not_ready");
    assertThat(refused.error()).contains(ErrorKind.DOCTOR_NOT_READY);
    assertThat(refused.failed()).isTrue();
    assertThat(refused.highCardinalityTags()).isEmpty();

    // A doctor of every enabled extension and a list: no extension of their own.
    Files.delete(dir.resolve("bin/fail"));
    recorder.order.clear();
    loopx.doctorAll(Mode.EXECUTE);
    loopx.list();
    assertThat(recorder.order)
        .containsExactly(
            "rec begin loopx.lifecycle",
            "rec begin loopx.doctor",
            "rec end loopx.doctor",
            "rec end loopx.lifecycle",
            "rec begin loopx.lifecycle",
            "rec end loopx.lifecycle");
    List<ObservedCall> ends = recorder.ended("loopx.lifecycle");
    assertThat(ends.get(2).lowCardinalityTags())
        .containsExactlyEntriesOf(
            tags("operation", "doctor", "extension", "none", "mode", "execute", "outcome", "ok"));
    assertThat(ends.get(3).lowCardinalityTags())
        .containsExactlyEntriesOf(
            tags("operation", "list", "extension", "none", "mode", "preview", "outcome", "ok"));
    assertThat(recorder.ended("loopx.doctor").get(2).lowCardinalityTags())
        .containsEntry("operation", "doctor")
        .containsEntry("outcome", "ready");
  }

  @Test
  void observersBeginInOrderAndEndInReverse() {
    List<String> order = new ArrayList<>();
    Recorder first = new Recorder("first", order);
    Recorder second = new Recorder("second", order);
    Loopx loopx = loopx(List.of(first, second), builtin());

    dispatch(loopx, Mode.EXECUTE);

    assertThat(order)
        .containsExactly(
            "first begin loopx.dispatch",
            "second begin loopx.dispatch",
            "second end loopx.dispatch",
            "first end loopx.dispatch");
    assertThat(first.ended.get(0)).isEqualTo(second.ended.get(0));
  }

  @Test
  void aThrowingObserverIsLoggedOnceAndChangesNothing() {
    List<String> order = new ArrayList<>();
    Recorder before = new Recorder("before", order);
    Recorder after = new Recorder("after", order);
    CallObserver throwsOnBegin =
        call -> {
          throw new IllegalStateException("begin broke");
        };
    CallObserver throwsOnEnd =
        call ->
            end -> {
              throw new IllegalStateException("end broke");
            };
    Loopx loopx = loopx(List.of(before, throwsOnBegin, throwsOnEnd, after), builtin());

    DispatchReceipt one = dispatch(loopx, Mode.EXECUTE);
    DispatchReceipt two = dispatch(loopx, Mode.EXECUTE);

    assertThat(one.ok()).isTrue();
    assertThat(two.ok()).isTrue();
    assertThat(one.toJson()).isEqualTo(two.toJson());
    assertThat(order)
        .containsExactly(
            "before begin loopx.dispatch",
            "after begin loopx.dispatch",
            "after end loopx.dispatch",
            "before end loopx.dispatch",
            "before begin loopx.dispatch",
            "after begin loopx.dispatch",
            "after end loopx.dispatch",
            "before end loopx.dispatch");
    List<CapturingLogger.Line> warnings =
        log.lines.stream()
            .filter(l -> l.level() == Level.WARNING && l.message().contains("call observer"))
            .toList();
    assertThat(warnings).hasSize(2).allMatch(CapturingLogger.Line::withThrowable);
    assertThat(warnings.get(0).message())
        .startsWith("loopx: call observer ")
        .endsWith(" threw on begin of loopx.dispatch; its later failures are not logged");
    assertThat(warnings.get(1).message())
        .endsWith(" threw on end of loopx.dispatch; its later failures are not logged");
    assertThat(before.ended(("loopx.dispatch")).get(0).lowCardinalityTags())
        .containsEntry("outcome", "succeeded");
  }

  @Test
  void withoutObserversACallIsUnchanged() {
    Loopx loopx = loopx(List.of(), builtin());
    DispatchReceipt receipt = dispatch(loopx, Mode.EXECUTE);
    assertThat(receipt.ok()).isTrue();
    assertThat(receipt.providerId()).isEqualTo(ProviderId.LOOPX_CORE);
    assertThat(log.lines).noneMatch(l -> l.message().contains("call observer"));
  }
}
