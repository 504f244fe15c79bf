package io.loopx.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.internal.state.Reliability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dispatch racing a disable and an uninstall committed by another {@link Loopx} on the same
 * runtime root either ran before the disable committed or ends {@code extension_disabled}, {@code
 * not_installed} or {@code resolution_failed}, and then started no provider.
 *
 * <p>Count: {@code -Dloopx.reliability.uninstallRaces} (default 20; the {@code reliability} profile
 * may raise it).
 */
class UninstallRaceTest {
  static final ExtensionId PROVIDER = ExtensionId.of("demo-provider");
  static final byte[] REQUEST = "{\"schema_version\":\"demo_request_v0\"}".getBytes(UTF_8);
  static final int RACES = Reliability.count("uninstallRaces", 20);
  static final Set<ErrorKind> REFUSALS =
      Set.of(ErrorKind.EXTENSION_DISABLED, ErrorKind.NOT_INSTALLED, ErrorKind.RESOLUTION_FAILED);

  @TempDir Path tmp;

  @Test
  void aDisableAndUninstallCommittedWhileThePolicyDecidesIsNotInstalled() throws Exception {
    DispatchTest fixture = new DispatchTest();
    fixture.tmp = tmp;
    Path dir = fixture.provider(PROVIDER.value(), "[\"demo.read\"]", "[\"demo.read\"]");
    Path runs = dir.resolve("stdin.json");
    Loopx operator = fixture.loopx(new DispatchTest.Contract());
    fixture.install(operator, dir);
    Loopx host = fixture.loopx(new DispatchTest.Contract());

    DisableRaceTest.LatchedPolicy latch = new DisableRaceTest.LatchedPolicy();
    fixture.policy = latch;
    CompletableFuture<DispatchReceipt> call =
        CompletableFuture.supplyAsync(
            () -> host.dispatch(DispatchTest.request().input(REQUEST).build(), Mode.EXECUTE));
    latch.awaitEntered();
    operator.disable(PROVIDER, Mode.EXECUTE);
    assertThat(operator.uninstall(PROVIDER, Mode.EXECUTE).changed()).isTrue();
    latch.release();

    assertThat(kindOf(call)).contains(ErrorKind.NOT_INSTALLED);
    assertThat(runs).doesNotExist();
  }

  @Test
  void aFreeRaceEndsRanOrTypedRefusal() throws Exception {
    DispatchTest fixture = new DispatchTest();
    fixture.tmp = tmp;
    Path dir = fixture.provider(PROVIDER.value(), "[\"demo.read\"]", "[\"demo.read\"]");
    Path runs = dir.resolve("stdin.json");
    Loopx operator = fixture.loopx(new DispatchTest.Contract());
    Loopx host = fixture.loopx(new DispatchTest.Contract());
    Map<ErrorKind, Integer> refused = new EnumMap<>(ErrorKind.class);
    int ran = 0;
    for (int i = 0; i < RACES; i++) {
      fixture.install(operator, dir);
      Files.deleteIfExists(runs);
      CyclicBarrier start = new CyclicBarrier(2);
      CompletableFuture<DispatchReceipt> call =
          CompletableFuture.supplyAsync(
              () -> {
                await(start);
                return host.dispatch(DispatchTest.request().input(REQUEST).build(), Mode.EXECUTE);
              });
      await(start);
      operator.disable(PROVIDER, Mode.EXECUTE);
      operator.uninstall(PROVIDER, Mode.EXECUTE);

      Optional<ErrorKind> outcome = kindOf(call);
      if (outcome.isEmpty()) {
        assertThat(call.join().ok()).as("race %d", i).isTrue();
        assertThat(runs).as("race %d: ran", i).exists();
        ran++;
      } else {
        ErrorKind kind = outcome.get();
        assertThat(REFUSALS).as("race %d ended %s", i, kind).contains(kind);
        assertThat(runs).as("race %d: refused yet the provider ran", i).doesNotExist();
        refused.merge(kind, 1, Integer::sum);
      }
      assertThat(operator.state().get(PROVIDER)).isEmpty();
    }
    Reliability.report(
        "uninstall-races.txt",
        List.of(
            "dispatch vs disable + uninstall races: " + RACES,
            "ran before the disable: " + ran,
            "refused: " + refused));
  }

  private static Optional<ErrorKind> kindOf(CompletableFuture<DispatchReceipt> call)
      throws Exception {
    try {
      call.get(60, TimeUnit.SECONDS);
      return Optional.empty();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof LoopxException l) {
        return Optional.of(l.kind());
      }
      throw e;
    }
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new CompletionException(e);
    }
  }
}
