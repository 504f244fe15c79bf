package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.internal.state.FileActivationStore;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How often a dispatch reads the activation state (what a database store pays per dispatch,
 * docs/store-postgresql.md#cost-per-operation): an executed dispatch reads the whole state once, to
 * resolve and prepare, and the extension's entry once, for the execute-time check right before the
 * frame or the launch; and a disable committed after the resolution's read still wins.
 */
class DispatchStoreReadsTest {
  @TempDir Path tmp;

  /** A file store that counts the reads made on the calling thread (not the worker reaper's). */
  static final class CountingStore implements ActivationStore {
    final ActivationStore real;
    final Thread caller = Thread.currentThread();
    final AtomicInteger reads = new AtomicInteger();
    final AtomicInteger entries = new AtomicInteger();
    final AtomicReference<Runnable> afterRead = new AtomicReference<>(() -> {});

    CountingStore(ActivationStore real) {
      this.real = real;
    }

    @Override
    public ActivationState read() {
      ActivationState state = real.read();
      if (Thread.currentThread() == caller) {
        reads.incrementAndGet();
        afterRead.getAndSet(() -> {}).run();
      }
      return state;
    }

    @Override
    public Optional<ExtensionRecord> entry(ExtensionId id) {
      if (Thread.currentThread() == caller) {
        entries.incrementAndGet();
      }
      return real.entry(id);
    }

    @Override
    public ActivationState update(String operation, List<EntryChange> changes) {
      return real.update(operation, changes);
    }

    void reset() {
      reads.set(0);
      entries.set(0);
    }
  }

  private Loopx host(ActivationStore store, Path root) {
    return Loopx.builder()
        .runtimeRoot(root)
        .activationStore(store)
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .domainPolicy(DomainPolicy.allowAll())
        .builtin(new DispatchTest.Contract())
        .build();
  }

  @Test
  void aWarmDispatchReadsTheStateOnceAndItsEntryOnce() throws IOException {
    Path dir = WorkerFixture.write(tmp.resolve("warm"), "1.0.0", 10, "[runtime.worker]\n");
    Path root = tmp.resolve("root");
    CountingStore store = new CountingStore(FileActivationStore.inRuntimeRoot(root));
    try (Loopx loopx = host(store, root)) {
      loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);
      DispatchReceipt first = dispatch(loopx, "start");
      assertThat(first.outcome().exitCode()).as("a worker answered").isEmpty();
      for (int i = 0; i < 3; i++) {
        store.reset();
        DispatchReceipt warm = dispatch(loopx, "warm" + i);
        assertThat(warm.outcome().exitCode()).as("a worker answered").isEmpty();
        assertThat(store.reads.get()).as("whole-state reads").isEqualTo(1);
        assertThat(store.entries.get()).as("execute-time check reads").isEqualTo(1);
      }
      store.reset();
      DispatchReceipt oneShot =
          loopx.dispatch(
              DispatchTest.request().input(WorkerFixture.request("one", "")).oneShot().build(),
              Mode.EXECUTE);
      assertThat(oneShot.ok()).as(oneShot.toString()).isTrue();
      assertThat(oneShot.outcome().exitCode()).as("a one-shot process").isPresent();
      assertThat(store.reads.get()).isEqualTo(1);
      assertThat(store.entries.get()).isEqualTo(1);
    }
  }

  @Test
  void aDisableCommittedRightAfterTheResolutionsReadStillWins() throws IOException {
    Path dir = WorkerFixture.write(tmp.resolve("warm"), "1.0.0", 10, "[runtime.worker]\n");
    Path root = tmp.resolve("root");
    CountingStore store = new CountingStore(FileActivationStore.inRuntimeRoot(root));
    try (Loopx loopx = host(store, root);
        Loopx operator = host(FileActivationStore.inRuntimeRoot(root), root)) {
      loopx.install(WorkerFixture.load(dir), Mode.EXECUTE);
      long pid = WorkerFixture.pid(dispatch(loopx, "start"));
      WorkerFixture.awaitSeen(dir, "start");

      store.afterRead.set(() -> operator.disable(WorkerFixture.ID, Mode.EXECUTE));
      assertThatThrownBy(() -> dispatch(loopx, "after"))
          .isInstanceOfSatisfying(
              LoopxException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.EXTENSION_DISABLED));
      assertThat(dir.resolve("seen").resolve("after"))
          .as("the worker never got the request")
          .doesNotExist();
      // Refused at the check: the extension's workers are retired at once.
      assertThat(WorkerFixture.eventually(Duration.ofSeconds(30), () -> WorkerFixture.gone(pid)))
          .isTrue();
    }
  }

  private static DispatchReceipt dispatch(Loopx loopx, String tag) {
    DispatchReceipt r =
        loopx.dispatch(
            DispatchTest.request().input(WorkerFixture.request(tag, "")).build(), Mode.EXECUTE);
    assertThat(r.ok()).as(r.toString()).isTrue();
    return r;
  }
}
