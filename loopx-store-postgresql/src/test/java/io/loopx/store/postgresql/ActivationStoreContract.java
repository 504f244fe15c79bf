package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The {@link ActivationStore} contract (docs/contract/state.md), run against every store: the file
 * store and the PostgreSQL store pass the same cases.
 */
abstract class ActivationStoreContract {
  static final ExtensionId A = ExtensionId.of("alpha-ext");
  static final ExtensionId B = ExtensionId.of("beta-ext");

  /** Returns the store under test (a fresh, empty state per test). */
  abstract ActivationStore store();

  /** Returns a second store on the same state (another host) waiting at most {@code timeout}. */
  abstract ActivationStore otherHost(Duration lockTimeout);

  /** Returns a number that changes whenever the state is written. */
  abstract Object writeMarker() throws Exception;

  /** Makes the stored entry of {@code id} break a rule, as a hand edit would. */
  abstract void corrupt(ExtensionId id) throws Exception;

  /** Holds the write lock of the state from outside the store until closed. */
  abstract AutoCloseable holdLock() throws Exception;

  static void assertKind(Runnable call, ErrorKind kind, String messagePart) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(LoopxException.class, e -> assertThat(e.kind()).isEqualTo(kind))
        .hasMessageContaining(messagePart);
  }

  @Test
  void readsEmptyWhenNothingIsInstalled() {
    assertThat(store().read().isEmpty()).isTrue();
    assertThat(store().entry(A)).isEmpty();
  }

  @Test
  void installedEntriesReadBackEqualOnEveryHost() {
    ActivationState after = store().update("install", List.of(Records.install("alpha-ext")));

    assertThat(after.get(A)).contains(Records.installed("alpha-ext"));
    assertThat(store().read()).isEqualTo(after);
    assertThat(otherHost(Duration.ofSeconds(5)).read()).isEqualTo(after);
    assertThat(otherHost(Duration.ofSeconds(5)).entry(A)).contains(Records.installed("alpha-ext"));
    assertThat(store().entry(B)).isEmpty();
  }

  @Test
  void aStaleExpectationIsAConflictAndWritesNothing() throws Exception {
    store().update("install", List.of(Records.install("alpha-ext")));
    ActivationState before = store().read();
    Object marker = writeMarker();

    assertKind(
        () ->
            otherHost(Duration.ofSeconds(5))
                .update(
                    "install", List.of(Records.install("alpha-ext"), Records.install("beta-ext"))),
        ErrorKind.STATE_CONFLICT,
        "extension state changed during install; retry");

    assertThat(store().read()).isEqualTo(before);
    assertThat(writeMarker()).isEqualTo(marker);
  }

  @Test
  void aChangeThatAltersNothingIsNotWritten() throws Exception {
    ExtensionRecord r =
        store().update("install", List.of(Records.install("alpha-ext"))).installed(A);
    Object marker = writeMarker();

    ActivationState after =
        store().update("enable", List.of(new EntryChange(A, Optional.of(r), Optional.of(r))));

    assertThat(after.get(A)).contains(r);
    assertThat(writeMarker()).isEqualTo(marker);
  }

  @Test
  void removalAndSeveralChangesApplyTogether() {
    store().update("install", List.of(Records.install("alpha-ext")));
    ExtensionRecord a = store().read().installed(A);

    ActivationState after =
        otherHost(Duration.ofSeconds(5))
            .update(
                "upgrade",
                List.of(
                    new EntryChange(A, Optional.of(a), Optional.empty()),
                    Records.install("beta-ext")));

    assertThat(after.extensions().keySet()).containsExactly(B);
    assertThat(store().read()).isEqualTo(after);
  }

  @Test
  void historyIsBoundedAndSurvivesTheRoundTrip() {
    ExtensionRecord r =
        store().update("install", List.of(Records.install("alpha-ext"))).installed(A);
    for (int v = 2; v <= 8; v++) {
      ExtensionRecord next =
          ExtensionRecords.upgradedTo(
              r, Records.snapshot("alpha-ext", v + ".0.0"), Optional.of(Records.identity(v)));
      r =
          store()
              .update("upgrade", List.of(new EntryChange(A, Optional.of(r), Optional.of(next))))
              .installed(A);
    }

    ExtensionRecord read = otherHost(Duration.ofSeconds(5)).read().installed(A);
    assertThat(read.revisions()).hasSize(ExtensionRecord.MAX_REVISIONS);
    assertThat(read.active().version()).isEqualTo("8.0.0");
    assertThat(read.rollbackRevision()).contains(read.revisions().get(3).revision());
    assertThat(read).isEqualTo(r);
  }

  @Test
  void anInvalidEntryFailsTheWholeReadNamingTheEntry() throws Exception {
    store().update("install", List.of(Records.install("alpha-ext"), Records.install("beta-ext")));
    corrupt(B);

    assertKind(
        () -> otherHost(Duration.ofSeconds(5)).read(),
        ErrorKind.STATE_UNREADABLE,
        "invalid entry `beta-ext`");
    assertKind(
        () ->
            otherHost(Duration.ofSeconds(5))
                .update("disable", List.of(Records.toggle(Records.installed("alpha-ext")))),
        ErrorKind.STATE_UNREADABLE,
        "invalid entry `beta-ext`");
  }

  @Test
  void aHeldLockIsStateLockedAfterTheBoundedWait() throws Exception {
    ActivationStore impatient = otherHost(Duration.ofMillis(300));
    try (AutoCloseable held = holdLock()) {
      assertKind(
          () -> impatient.update("install", List.of(Records.install("alpha-ext"))),
          ErrorKind.STATE_LOCKED,
          "locked by another process");
    }
    assertThat(impatient.update("install", List.of(Records.install("alpha-ext"))).get(A))
        .isPresent();
  }
}
