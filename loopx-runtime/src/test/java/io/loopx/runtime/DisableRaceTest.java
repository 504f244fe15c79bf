package io.loopx.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.internal.state.FileActivationStore;
import io.loopx.runtime.internal.state.Reliability;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disable that commits before the execute-time check always wins (docs/threat-model.md, P3):
 * while a dispatch waits on the host's policy, and while a run hashes its runtime, another {@link
 * Loopx} on the same runtime root disables the extension; the call must fail {@code
 * extension_disabled} and the provider must not start.
 *
 * <p>Count: {@code -Dloopx.reliability.disableRaces} (default 20; the {@code reliability} profile
 * runs 1,000).
 */
class DisableRaceTest {
  static final ExtensionId PROVIDER = ExtensionId.of("demo-provider");
  static final ExtensionId SOLO = ExtensionId.of("solo");
  static final byte[] REQUEST = "{\"schema_version\":\"demo_request_v0\"}".getBytes(UTF_8);
  static final int RACES = Reliability.count("disableRaces", 20);

  @TempDir Path tmp;

  @Test
  void aDisableCommittedWhileThePolicyDecidesWinsEveryTime() throws Exception {
    DispatchTest fixture = new DispatchTest();
    fixture.tmp = tmp;
    Path dir = fixture.provider(PROVIDER.value(), "[\"demo.read\"]", "[\"demo.read\"]");
    Path runs = dir.resolve("stdin.json");
    Loopx operator = fixture.loopx(new DispatchTest.Contract());
    fixture.install(operator, dir);
    Loopx host = fixture.loopx(new DispatchTest.Contract());

    // Control: without a disable the latched dispatch runs the provider.
    LatchedPolicy control = new LatchedPolicy();
    fixture.policy = control;
    CompletableFuture<DispatchReceipt> ran = dispatchAsync(host);
    control.awaitEntered();
    control.release();
    assertThat(ran.get(60, TimeUnit.SECONDS).ok()).isTrue();
    assertThat(runs).exists();
    Files.delete(runs);

    int refused = 0;
    for (int i = 0; i < RACES; i++) {
      LatchedPolicy latch = new LatchedPolicy();
      fixture.policy = latch;
      CompletableFuture<DispatchReceipt> call = dispatchAsync(host);
      latch.awaitEntered();
      assertThat(operator.disable(PROVIDER, Mode.EXECUTE).changed()).isTrue();
      latch.release();

      assertThatThrownBy(() -> call.join())
          .hasCauseInstanceOf(LoopxException.class)
          .cause()
          .satisfies(
              e -> assertThat(((LoopxException) e).kind()).isEqualTo(ErrorKind.EXTENSION_DISABLED));
      assertThat(runs).as("race %d: the provider ran after a committed disable", i).doesNotExist();
      refused++;
      assertThat(operator.enable(PROVIDER, Mode.EXECUTE).enabled()).contains(true);
    }
    Reliability.report(
        "disable-races.txt",
        List.of(
            "disable-during-dispatch races (latched policy): " + RACES,
            "refused extension_disabled: " + refused,
            "provider runs after a committed disable: 0"));
  }

  @Test
  void aDisableCommittedBetweenTheFirstReadAndTheLaunchStopsARun() throws IOException {
    Path dir = soloPackage();
    Path runtimeRoot = tmp.resolve("root");
    Loopx operator =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(runtimeRoot)
            .hostEnvironment(env())
            .build();
    operator.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);

    AtomicBoolean armed = new AtomicBoolean();
    ActivationStore real = FileActivationStore.inRuntimeRoot(runtimeRoot);
    ActivationStore disablingAfterFirstRead =
        new ActivationStore() {
          @Override
          public ActivationState read() {
            ActivationState state = real.read();
            if (armed.compareAndSet(true, false)) {
              operator.disable(SOLO, Mode.EXECUTE); // commits right after the run's first read
            }
            return state;
          }

          @Override
          public ActivationState update(String operation, List<EntryChange> changes) {
            return real.update(operation, changes);
          }
        };
    Loopx host =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .activationStore(disablingAfterFirstRead)
            .hostEnvironment(env())
            .build();
    assertThat(host.run(RunRequest.of(SOLO, REQUEST), Mode.EXECUTE).ok()).isTrue();
    assertThat(dir.resolve("ran")).exists();
    Files.delete(dir.resolve("ran"));

    armed.set(true);
    assertThatThrownBy(() -> host.run(RunRequest.of(SOLO, REQUEST), Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.EXTENSION_DISABLED));
    assertThat(dir.resolve("ran")).doesNotExist();
    assertThat(operator.state().installed(SOLO).enabled()).isFalse();
  }

  @Test
  void anActivationCheckAfterACommittedDisableIsRefused() throws IOException {
    DispatchTest fixture = new DispatchTest();
    fixture.tmp = tmp;
    Path dir = fixture.provider(PROVIDER.value(), "[\"demo.read\"]", "[\"demo.read\"]");
    Loopx operator = fixture.loopx(new DispatchTest.Contract());
    fixture.install(operator, dir);
    Loopx host = fixture.loopx(new DispatchTest.Contract());
    assertThat(host.check(PROVIDER, Set.of(DispatchTest.READ)).ok()).isTrue();

    operator.disable(PROVIDER, Mode.EXECUTE);

    assertThatThrownBy(() -> host.check(PROVIDER, Set.of(DispatchTest.READ)))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.EXTENSION_DISABLED));
  }

  private static CompletableFuture<DispatchReceipt> dispatchAsync(Loopx host) {
    return CompletableFuture.supplyAsync(
        () -> host.dispatch(DispatchTest.request().input(REQUEST).build(), Mode.EXECUTE));
  }

  private static Map<String, String> env() {
    return Map.of("PATH", "/usr/bin:/bin");
  }

  private Path soloPackage() throws IOException {
    Path dir = tmp.resolve("solo");
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/provider");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "[ \"$1\" = \"--doctor\" ] && exit 0\n"
            + "cat >/dev/null\n"
            + ": > \"$(dirname \"$0\")/../ran\"\n"
            + "echo '{\"ok\":true}'\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \"solo\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + "[runtime]\nprotocol = \"demo_run_v0\"\nentrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\n");
    return dir;
  }

  /** A host policy that blocks (as a remote authorisation call would) until released. */
  static final class LatchedPolicy implements DomainPolicy {
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    @Override
    public Decision decide(io.loopx.runtime.dispatch.DispatchRequest request) {
      entered.countDown();
      try {
        if (!released.await(60, TimeUnit.SECONDS)) {
          return Decision.deny("test latch never released");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Decision.deny("interrupted");
      }
      return Decision.allow();
    }

    void awaitEntered() throws InterruptedException {
      assertThat(entered.await(60, TimeUnit.SECONDS))
          .as("the dispatch reached the policy")
          .isTrue();
    }

    void release() {
      released.countDown();
    }
  }
}
