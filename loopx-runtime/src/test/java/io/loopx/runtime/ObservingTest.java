package io.loopx.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.events.CallCompleted;
import io.loopx.runtime.events.DoctorResult;
import io.loopx.runtime.events.LifecycleTransition;
import io.loopx.runtime.events.LoopxEvent;
import io.loopx.runtime.events.TransitionCause;
import io.loopx.runtime.internal.observe.DoctorProgressRecord;
import io.loopx.runtime.internal.observe.DoctorResultRecord;
import io.loopx.runtime.internal.observe.LifecycleTransitionRecord;
import io.loopx.runtime.internal.observe.StoreConflictRecord;
import io.loopx.runtime.internal.state.FileActivationStore;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.run.RunStatus;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Listeners, their events and order, listener isolation and the log lines (docs/observing.md). */
class ObservingTest {
  static final ExtensionId ID = LifecycleTest.ID;
  static final Map<String, String> ENV = Map.of("PATH", "/usr/bin:/bin");

  @TempDir Path tmp;
  Path root;
  final List<LoopxEvent> events = new CopyOnWriteArrayList<>();
  final CapturingLogger log = new CapturingLogger();
  Loopx loopx;

  @BeforeEach
  void setUp() {
    root = tmp.resolve("runtime-root");
    loopx = builder().listener(events::add).build();
  }

  Loopx.Builder builder() {
    return Loopx.builder()
        .isolation(IsolationPolicy.OFF)
        .runtimeRoot(root)
        .hostEnvironment(ENV)
        .logger(log);
  }

  LoadedManifest version(String version) throws IOException {
    Path dir = tmp.resolve("demo-ext-" + version);
    LifecycleTest.writeProvider(dir, version);
    return LoadedManifest.load(dir.resolve("extension.toml"));
  }

  <T extends LoopxEvent> List<T> only(Class<T> type) {
    return events.stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** The completed calls of {@code operation} ({@code run} or {@code dispatch}). */
  List<CallCompleted> calls(String operation) {
    return only(CallCompleted.class).stream().filter(c -> c.operation().equals(operation)).toList();
  }

  /** The status's or the error's wire name, as the log line and the JFR event show it. */
  static String outcome(CallCompleted c) {
    return c.status().map(RunStatus::wireName).orElseGet(() -> c.error().orElseThrow().wireName());
  }

  /** The simple name of the public event interface {@code e} implements. */
  static String kind(LoopxEvent e) {
    for (Class<?> i : e.getClass().getInterfaces()) {
      if (LoopxEvent.class.isAssignableFrom(i)) {
        return i.getSimpleName();
      }
    }
    throw new AssertionError("not an event: " + e);
  }

  @Test
  void everyExecutedTransitionInCommitOrderAndNoneForPreviews() throws IOException {
    LoadedManifest v1 = version("1.0.0");
    LoadedManifest v2 = version("2.0.0");
    loopx.install(v1, Mode.PREVIEW);
    assertThat(events).isEmpty();

    Revision r1 = loopx.install(v1, Mode.EXECUTE).revision().orElseThrow();
    loopx.disable(ID, Mode.PREVIEW);
    loopx.disable(ID, Mode.EXECUTE);
    loopx.disable(ID, Mode.EXECUTE); // a no-op writes nothing
    loopx.enable(ID, Mode.EXECUTE);
    Revision r2 = loopx.upgrade(v2, Mode.EXECUTE).revision().orElseThrow();
    loopx.rollback(ID, Mode.EXECUTE);
    long beforeDoctor = System.nanoTime();
    loopx.doctor(ID, Mode.EXECUTE);
    Duration doctorCall = Duration.ofNanos(System.nanoTime() - beforeDoctor);
    loopx.disable(ID, Mode.EXECUTE);
    loopx.uninstall(ID, Mode.PREVIEW);
    loopx.uninstall(ID, Mode.EXECUTE);

    Optional<DoctorStatus> ready = Optional.of(DoctorStatus.READY);
    assertThat(only(LifecycleTransition.class))
        .containsExactly(
            transition("install", Optional.empty(), Optional.of(r1), false, true, ready),
            transition("disable", Optional.of(r1), Optional.of(r1), true, false, Optional.empty()),
            transition("enable", Optional.of(r1), Optional.of(r1), false, true, ready),
            transition("upgrade", Optional.of(r1), Optional.of(r2), true, true, ready),
            transition("rollback", Optional.of(r2), Optional.of(r1), true, true, ready),
            transition("disable", Optional.of(r1), Optional.of(r1), true, false, Optional.empty()),
            transition(
                "uninstall", Optional.of(r1), Optional.empty(), false, false, Optional.empty()));
    // Each executed probe's result comes right before the transition it led to.
    List<String> kinds =
        events.stream()
            .map(e -> e instanceof DoctorResult d ? "doctor:" + d.operation() : kind(e))
            .toList();
    assertThat(kinds)
        .containsExactly(
            "doctor:install",
            "LifecycleTransition",
            "LifecycleTransition",
            "doctor:enable",
            "LifecycleTransition",
            "doctor:upgrade",
            "LifecycleTransition",
            "doctor:rollback",
            "LifecycleTransition",
            "doctor:doctor", // re-proving the proven identity alters nothing: no transition
            "LifecycleTransition",
            "LifecycleTransition");
    DoctorResult upgrade = only(DoctorResult.class).get(2);
    assertThat(upgrade)
        .isEqualTo(
            new DoctorResultRecord(
                "upgrade", ID, "2.0.0", DoctorStatus.READY, Optional.empty(), upgrade.duration()));
    // Each result carries the wall time of its probe: positive, within the command's own time.
    assertThat(only(DoctorResult.class)).allSatisfy(d -> assertThat(d.duration()).isPositive());
    DoctorResult doctor = only(DoctorResult.class).get(4);
    assertThat(doctor.operation()).isEqualTo("doctor");
    assertThat(doctor.duration()).isLessThanOrEqualTo(doctorCall);
    // One INFO line per executed change.
    assertThat(log.at(Level.INFO))
        .hasSize(7)
        .first()
        .isEqualTo(
            "loopx: install demo-ext revision - -> "
                + r1
                + ", enabled false -> true, doctor ready"
                + " (command)");
    assertThat(log.at(Level.INFO).get(6))
        .isEqualTo(
            "loopx: uninstall demo-ext revision " + r1 + " -> -, enabled false -> false (command)");
  }

  static LifecycleTransition transition(
      String op,
      Optional<Revision> before,
      Optional<Revision> after,
      boolean enabledBefore,
      boolean enabledAfter,
      Optional<DoctorStatus> doctor) {
    return new LifecycleTransitionRecord(
        op, ID, before, after, enabledBefore, enabledAfter, doctor, TransitionCause.COMMAND);
  }

  @Test
  void aFailedProbeThatRevokesIsAFailedProbeTransitionAndAFailureLine() throws IOException {
    LoadedManifest v1 = version("1.0.0");
    Revision r1 = loopx.install(v1, Mode.EXECUTE).revision().orElseThrow();
    loopx.disable(ID, Mode.EXECUTE);
    events.clear();
    Files.writeString(tmp.resolve("demo-ext-1.0.0/bin/fail"), "");

    assertThatThrownBy(() -> loopx.enable(ID, Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.DOCTOR_NOT_READY));

    assertThat(events).hasSize(2);
    Duration probe = ((DoctorResult) events.get(0)).duration();
    assertThat(probe).isPositive();
    assertThat(events)
        .containsExactly(
            new DoctorResultRecord(
                "enable",
                ID,
                "1.0.0",
                DoctorStatus.PROVIDER_UNAVAILABLE,
                Optional.of(DoctorFailure.PROBE_NONZERO_EXIT),
                probe),
            new LifecycleTransitionRecord(
                "enable",
                ID,
                Optional.of(r1),
                Optional.of(r1),
                false,
                false,
                Optional.of(DoctorStatus.PROVIDER_UNAVAILABLE),
                TransitionCause.FAILED_PROBE));
    assertThat(log.at(Level.INFO))
        .contains(
            "loopx: enable failed [doctor_not_ready]: enable doctor of `demo-ext` is not ready:"
                + " provider_unavailable (probe_nonzero_exit, exit code 3)");
  }

  @Test
  void aThrowingListenerChangesNothingAndIsLoggedOnce() throws IOException {
    List<LoopxEvent> second = new ArrayList<>();
    Loopx host =
        builder()
            .listener(
                e -> {
                  throw new IllegalStateException("listener bug");
                },
                second::add)
            .build();

    assertThat(host.install(version("1.0.0"), Mode.EXECUTE).changed()).isTrue();
    assertThat(host.disable(ID, Mode.EXECUTE).changed()).isTrue();

    assertThat(host.state().installed(ID).enabled()).isFalse();
    assertThat(second).hasSize(3); // doctor result, install, disable
    List<CapturingLogger.Line> warnings =
        log.lines.stream().filter(l -> l.level() == Level.WARNING).toList();
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0).message()).contains("listener").contains("threw on DoctorResult");
    assertThat(warnings.get(0).withThrowable()).isTrue();
  }

  @Test
  void changesCommittedByAnotherLoopxEmitNothingHere() throws IOException {
    Loopx other = builder().build();
    other.install(version("1.0.0"), Mode.EXECUTE);
    other.disable(ID, Mode.EXECUTE);
    loopx.list();
    loopx.registry();
    assertThat(events).isEmpty();
  }

  @Test
  void aListenerThatWritesGetsItsOwnEventsAfterTheCurrentOne() throws IOException {
    List<LoopxEvent> seen = new CopyOnWriteArrayList<>();
    AtomicBoolean once = new AtomicBoolean();
    Loopx[] self = new Loopx[1];
    self[0] =
        builder()
            .listener(
                e -> {
                  seen.add(e);
                  if (e instanceof LifecycleTransition t
                      && t.operation().equals("install")
                      && once.compareAndSet(false, true)) {
                    self[0].disable(ID, Mode.EXECUTE); // a write from inside the delivery
                    seen.add(new StoreConflictRecord("marker", List.of()));
                  }
                })
            .build();

    self[0].install(version("1.0.0"), Mode.EXECUTE);

    assertThat(seen.stream().map(ObservingTest::kind))
        .containsExactly(
            "DoctorResult", "LifecycleTransition", "StoreConflict", "LifecycleTransition");
    assertThat(((LifecycleTransition) seen.get(3)).operation()).isEqualTo("disable");
  }

  @Test
  void concurrentWritesOfOneLoopxAreDeliveredInCommitOrder() throws Exception {
    List<String> commits = new CopyOnWriteArrayList<>();
    ActivationStore file = FileActivationStore.inRuntimeRoot(root);
    ActivationStore recording =
        new ActivationStore() {
          @Override
          public ActivationState read() {
            return file.read();
          }

          @Override
          public ActivationState update(String operation, List<EntryChange> changes) {
            ActivationState after = file.update(operation, changes);
            changes.forEach(c -> commits.add(operation + " " + c.id()));
            return after;
          }
        };
    Loopx shared =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .activationStore(recording)
            .hostEnvironment(ENV)
            .logger(log)
            .listener(events::add)
            .build();
    int count = 4;
    List<ExtensionId> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ExtensionId id = ExtensionId.of("ext-" + i);
      ids.add(id);
      shared.install(manifestOf(id), Mode.EXECUTE);
    }
    ExecutorService pool = Executors.newFixedThreadPool(count);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (ExtensionId id : ids) {
        done.add(
            pool.submit(
                () -> {
                  start.await(60, TimeUnit.SECONDS);
                  for (int round = 0; round < 10; round++) {
                    shared.disable(id, Mode.EXECUTE);
                    shared.enable(id, Mode.EXECUTE);
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    List<String> delivered =
        only(LifecycleTransition.class).stream()
            .map(t -> t.operation() + " " + t.extensionId())
            .toList();
    assertThat(delivered).hasSize(count + count * 20).isEqualTo(commits);
  }

  LoadedManifest manifestOf(ExtensionId id) throws IOException {
    Path dir = tmp.resolve(id.value());
    LifecycleTest.writeProvider(dir, "1.0.0");
    Path toml = dir.resolve("extension.toml");
    Files.writeString(toml, Files.readString(toml).replace("demo-ext", id.value()));
    return LoadedManifest.load(toml);
  }

  @Test
  void aRefusedCompareAndSetIsAStoreConflict() throws IOException {
    Loopx operator = builder().build();
    operator.install(version("1.0.0"), Mode.EXECUTE);
    AtomicBoolean armed = new AtomicBoolean();
    ActivationStore file = FileActivationStore.inRuntimeRoot(root);
    ActivationStore racing =
        new ActivationStore() {
          @Override
          public ActivationState read() {
            ActivationState state = file.read();
            if (armed.compareAndSet(true, false)) {
              operator.disable(ID, Mode.EXECUTE); // commits after the command's read
            }
            return state;
          }

          @Override
          public ActivationState update(String operation, List<EntryChange> changes) {
            return file.update(operation, changes);
          }
        };
    Loopx host =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .activationStore(racing)
            .hostEnvironment(ENV)
            .logger(log)
            .listener(events::add)
            .build();
    armed.set(true);

    assertThatThrownBy(() -> host.disable(ID, Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_CONFLICT));

    assertThat(events).containsExactly(new StoreConflictRecord("disable", List.of(ID)));
    assertThat(log.at(Level.WARNING))
        .containsExactly(
            "loopx: disable refused: state changed [demo-ext]",
            "loopx: disable failed [state_conflict]: extension state changed during disable; retry");
  }

  @Test
  void aDoctorBatchReportsProgressBeforeEachProbe() throws IOException {
    List<ExtensionId> ids = List.of(ExtensionId.of("ext-a"), ExtensionId.of("ext-b"));
    for (ExtensionId id : ids) {
      loopx.install(manifestOf(id), Mode.EXECUTE);
    }
    events.clear();
    loopx.doctorAll(Mode.PREVIEW);
    assertThat(events).isEmpty();

    Files.writeString(tmp.resolve("ext-b/bin/fail"), "");
    loopx.doctorAll(Mode.EXECUTE);

    assertThat(List.copyOf(events).subList(0, 2))
        .containsExactly(
            new DoctorProgressRecord(1, 2, ids.get(0)), new DoctorProgressRecord(2, 2, ids.get(1)));
    assertThat(only(DoctorResult.class)).extracting(DoctorResult::extensionId).isEqualTo(ids);
    // ext-a re-proves what was proven (nothing to write); ext-b's failed probe revokes.
    assertThat(only(LifecycleTransition.class))
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.extensionId()).isEqualTo(ids.get(1));
              assertThat(t.cause()).isEqualTo(TransitionCause.FAILED_PROBE);
              assertThat(t.doctorStatus()).contains(DoctorStatus.PROVIDER_UNAVAILABLE);
            });
  }

  @Test
  void dispatchAndRunEventsCarryIdsDurationAndOutcomeButNeverBodies() throws IOException {
    DispatchTest fixture = new DispatchTest();
    fixture.tmp = tmp;
    Path dir = fixture.provider("demo-provider", "[\"demo.read\"]", "[\"demo.read\"]");
    Loopx host =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(ENV)
            .builtin(new DispatchTest.Contract())
            .domainPolicy(DomainPolicy.allowAll())
            .logger(log)
            .listener(events::add)
            .build();
    fixture.install(host, dir);
    events.clear();
    byte[] secret =
        "{\"schema_version\":\"demo_request_v0\",\"q\":\"s3cret-body\"}".getBytes(UTF_8);

    var receipt = host.dispatch(DispatchTest.request().input(secret).build(), Mode.EXECUTE);
    host.dispatch(DispatchTest.request().input(secret).build(), Mode.PREVIEW);
    assertThatThrownBy(
            () ->
                host.dispatch(
                    DispatchTest.request(Optional.of(ProviderId.of("ghost")), List.of())
                        .input(secret)
                        .build(),
                    Mode.EXECUTE))
        .isInstanceOf(LoopxException.class);

    List<CallCompleted> dispatches = calls("dispatch");
    assertThat(dispatches).hasSize(3);
    CallCompleted ran = dispatches.get(0);
    assertThat(ran.capabilityId()).contains(DispatchTest.CAP);
    assertThat(ran.protocol()).contains(DispatchTest.PROTOCOL);
    assertThat(ran.action()).contains(DispatchTest.ACTION);
    assertThat(ran.providerId()).contains(ProviderId.of("demo-provider"));
    assertThat(ran.extensionId()).isEmpty();
    assertThat(ran.revision()).contains(receipt.revision());
    assertThat(ran.mode()).isEqualTo(Mode.EXECUTE);
    assertThat(ran.duration()).isPositive();
    assertThat(ran.status()).contains(RunStatus.SUCCEEDED);
    assertThat(ran.error()).isEmpty();
    assertThat(dispatches.get(1).mode()).isEqualTo(Mode.PREVIEW);
    assertThat(dispatches.get(1).status()).contains(RunStatus.READY);
    assertThat(dispatches.get(2).providerId()).isEmpty();
    assertThat(dispatches.get(2).revision()).isEmpty();
    assertThat(dispatches.get(2).status()).isEmpty();
    assertThat(dispatches.get(2).failure()).isEmpty();
    assertThat(dispatches.get(2).error()).contains(ErrorKind.NOT_INSTALLED);

    Path solo = soloPackage();
    host.install(LoadedManifest.load(solo.resolve("extension.toml")), Mode.EXECUTE);
    var run = host.run(RunRequest.of(ExtensionId.of("solo"), secret), Mode.EXECUTE);
    assertThatThrownBy(() -> host.run(RunRequest.of(ExtensionId.of("ghost"), secret), Mode.EXECUTE))
        .isInstanceOf(LoopxException.class);
    List<CallCompleted> runs = calls("run");
    assertThat(runs).hasSize(2);
    assertThat(runs.get(0).extensionId()).contains(ExtensionId.of("solo"));
    assertThat(runs.get(0).capabilityId()).isEmpty();
    assertThat(runs.get(0).providerId()).isEmpty();
    assertThat(runs.get(0).mode()).isEqualTo(Mode.EXECUTE);
    assertThat(runs.get(0).revision()).contains(run.revision());
    assertThat(outcome(runs.get(0))).isEqualTo("succeeded");
    assertThat(runs.get(1).extensionId()).contains(ExtensionId.of("ghost"));
    assertThat(runs.get(1).revision()).isEmpty();
    assertThat(outcome(runs.get(1))).isEqualTo("not_installed");

    assertThat(log.lines).noneMatch(l -> l.message().contains("s3cret"));
    assertThat(log.at(Level.INFO))
        .contains("loopx: run ghost: not_installed in " + durationOf(runs.get(1)) + " ms");
    assertThat(log.at(Level.DEBUG))
        .anyMatch(
            l ->
                l.startsWith(
                    "loopx: dispatch demo-recall demo.recall by demo-provider: succeeded in "));
  }

  /**
   * One rule (docs/observing.md): a failure of the provider or its process is logged at WARNING,
   * whatever its failure kind, and an {@code ok:false} answer (exit 0 or not) is such a failure; a
   * refusal before the provider ran is INFO; a success DEBUG.
   */
  @Test
  void aProvidersOkFalseAnswerIsAWarningLikeEveryProviderFailure() throws IOException {
    byte[] input = "{\"schema_version\":\"demo_request_v0\"}".getBytes(UTF_8);
    for (String[] c :
        new String[][] {
          {"says-no", "echo '{\"ok\":false,\"error\":\"no\"}'"},
          {"says-no-exit-3", "echo '{\"ok\":false,\"error\":\"no\"}'; exit 3"},
          {"exits-2", "echo '{\"ok\":true}'; exit 2"},
          {"says-yes", "echo '{\"ok\":true}'"}
        }) {
      Path pkg = soloPackage(c[0], c[1]);
      loopx.install(LoadedManifest.load(pkg.resolve("extension.toml")), Mode.EXECUTE);
      loopx.run(RunRequest.of(ExtensionId.of(c[0]), input), Mode.EXECUTE);
    }
    List<CallCompleted> runs = calls("run");
    assertThat(runs)
        .extracting(ObservingTest::outcome)
        .containsExactly("provider_failed", "provider_failed", "provider_failed", "succeeded");
    assertThat(log.at(Level.WARNING))
        .contains(
            "loopx: run says-no: provider_failed in " + durationOf(runs.get(0)) + " ms",
            "loopx: run says-no-exit-3: provider_failed in " + durationOf(runs.get(1)) + " ms",
            "loopx: run exits-2: provider_failed in " + durationOf(runs.get(2)) + " ms");
    assertThat(log.at(Level.DEBUG))
        .contains("loopx: run says-yes: succeeded in " + durationOf(runs.get(3)) + " ms");
    assertThat(log.lines)
        .noneMatch(l -> l.message().startsWith("loopx: run says-yes") && l.level() != Level.DEBUG);
  }

  static long durationOf(CallCompleted run) {
    return run.duration().toMillis();
  }

  Path soloPackage() throws IOException {
    return soloPackage("solo", "echo '{\"ok\":true}'");
  }

  /** A standalone sh provider {@code id} whose answer is the shell command {@code answer}. */
  Path soloPackage(String id, String answer) throws IOException {
    Path dir = tmp.resolve(id);
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/provider");
    Files.writeString(
        script, "#!/bin/sh\n[ \"$1\" = \"--doctor\" ] && exit 0\ncat >/dev/null\n" + answer + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \""
            + id
            + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + "[runtime]\nprotocol = \"demo_run_v0\"\nentrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\n");
    return dir;
  }
}
