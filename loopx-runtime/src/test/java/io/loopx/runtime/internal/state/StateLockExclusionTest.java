package io.loopx.runtime.internal.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.state.EntryChange;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state lock excludes across JVMs (an OS lock, not only the in-JVM one): while a child JVM
 * holds it, the parent's update fails with {@code STATE_LOCKED} after its bounded wait and writes
 * nothing; once the child releases it (or dies), the update succeeds. And the other way round.
 */
class StateLockExclusionTest {
  private static final Duration SHORT = Duration.ofMillis(300);

  private static List<EntryChange> installAlpha() {
    return List.of(StateWorkload.install("alpha", 1));
  }

  private static void assertLocked(FileActivationStore store) {
    long started = System.nanoTime();
    assertThatThrownBy(() -> store.update("install", installAlpha()))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_LOCKED));
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(SHORT);
    assertThat(Files.exists(store.stateFile())).isFalse();
  }

  @Test
  void lockHeldByAnotherJvmTimesOutUntilReleased(@TempDir Path tmp) {
    FileActivationStore store =
        FileActivationStore.at(tmp.resolve("state.json")).withLockTimeout(SHORT);
    try (ChildJvm child = ChildJvm.start(tmp, "hold", store.stateFile().toString())) {
      child.await("HELD");
      assertLocked(store);

      child.send("RELEASE");
      child.await("RELEASED");
      assertThat(store.update("install", installAlpha()).get(ExtensionId.of("alpha"))).isPresent();
      child.send("EXIT");
      assertThat(child.awaitExit()).as(child::diagnostics).isZero();
    }
  }

  @Test
  void lockOfAKilledHolderIsFreedByTheOperatingSystem(@TempDir Path tmp) {
    FileActivationStore store =
        FileActivationStore.at(tmp.resolve("state.json")).withLockTimeout(SHORT);
    try (ChildJvm child = ChildJvm.start(tmp, "hold", store.stateFile().toString())) {
      child.await("HELD");
      assertLocked(store);
      child.kill();
    }
    assertThat(store.update("install", installAlpha()).get(ExtensionId.of("alpha"))).isPresent();
  }

  @Test
  void lockHeldByThisJvmKeepsAnotherJvmOut(@TempDir Path tmp) {
    FileActivationStore store = FileActivationStore.at(tmp.resolve("state.json"));
    try (StateLock held = StateLock.acquire(store.lockFile(), SHORT);
        ChildJvm child =
            ChildJvm.start(
                tmp, "hold", store.stateFile().toString(), Long.toString(SHORT.toMillis()))) {
      assertThat(child.nextLine()).as(child::diagnostics).isEqualTo("FAIL state_locked");
      child.send("EXIT");
      assertThat(child.awaitExit()).as(child::diagnostics).isZero();
    }
    try (ChildJvm child =
        ChildJvm.start(
            tmp, "hold", store.stateFile().toString(), Long.toString(SHORT.toMillis()))) {
      assertThat(child.nextLine()).as(child::diagnostics).isEqualTo("HELD");
      child.send("RELEASE");
      child.await("RELEASED");
      child.send("EXIT");
      assertThat(child.awaitExit()).as(child::diagnostics).isZero();
    }
  }
}
