package io.loopx.runtime.state;

import static io.loopx.runtime.internal.state.TestManifests.identity;
import static io.loopx.runtime.internal.state.TestManifests.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.runtime.internal.state.ExtensionRecords;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExtensionRecordTest {

  @Test
  void firstInstallIsEnabledWithoutRollbackAndProvenForItsIdentity() {
    ExtensionRecord r =
        ExtensionRecords.installed(snapshot("ext", "1.0.0"), Optional.of(identity(1)));

    assertThat(r.enabled()).isTrue();
    assertThat(r.rollbackAvailable()).isFalse();
    assertThat(r.proofCovers(identity(1))).isTrue();
    assertThat(r.proofCovers(identity(2))).isFalse();
  }

  @Test
  void upgradeKeepsTheNewestFiveAndAlwaysActiveAndRollback() {
    ExtensionRecord r = ExtensionRecords.installed(snapshot("ext", "1"), Optional.of(identity(1)));
    for (int v = 2; v <= 8; v++) {
      r =
          ExtensionRecords.upgradedTo(
              r, snapshot("ext", Integer.toString(v)), Optional.of(identity(v)));
    }

    assertThat(r.revisions())
        .extracting(RevisionSnapshot::version)
        .containsExactly("4", "5", "6", "7", "8");
    assertThat(r.active().version()).isEqualTo("8");
    assertThat(r.snapshot(r.rollbackRevision().orElseThrow()).orElseThrow().version())
        .isEqualTo("7");
    assertThat(r.doctorVerifiedIdentities()).containsExactly(identity(8));
  }

  @Test
  void rollbackTargetIsKeptEvenWhenItIsTheOldest() {
    ExtensionRecord r = ExtensionRecords.installed(snapshot("ext", "1"), Optional.of(identity(1)));
    r = ExtensionRecords.upgradedTo(r, snapshot("ext", "2"), Optional.of(identity(2)));
    r = ExtensionRecords.rolledBack(r, identity(1)); // active 1, rollback 2
    for (int v = 3; v <= 7; v++) {
      // upgrade from an old active: the previous active becomes the rollback target
      r =
          ExtensionRecords.upgradedTo(
              r, snapshot("ext", Integer.toString(v)), Optional.of(identity(v)));
    }
    assertThat(r.revisions()).hasSize(ExtensionRecord.MAX_REVISIONS);
    assertThat(r.snapshot(r.activeRevision())).isPresent();
    assertThat(r.snapshot(r.rollbackRevision().orElseThrow())).isPresent();
  }

  @Test
  void historyBoundNeverDropsActiveOrRollbackTargets() {
    List<RevisionSnapshot> seven =
        List.of(
            snapshot("ext", "1"),
            snapshot("ext", "2"),
            snapshot("ext", "3"),
            snapshot("ext", "4"),
            snapshot("ext", "5"),
            snapshot("ext", "6"),
            snapshot("ext", "7"));
    Revision oldest = seven.get(0).revision();
    Revision second = seven.get(1).revision();

    List<RevisionSnapshot> kept = ExtensionRecords.bounded(seven, oldest, second);

    assertThat(kept).extracting(RevisionSnapshot::version).containsExactly("1", "2", "5", "6", "7");
  }

  @Test
  void upgradeToARevisionInHistoryMovesItToTheNewest() {
    ExtensionRecord r = ExtensionRecords.installed(snapshot("ext", "1"), Optional.of(identity(1)));
    r = ExtensionRecords.upgradedTo(r, snapshot("ext", "2"), Optional.of(identity(2)));
    r = ExtensionRecords.upgradedTo(r, snapshot("ext", "1"), Optional.of(identity(3)));

    assertThat(r.revisions()).extracting(RevisionSnapshot::version).containsExactly("2", "1");
    assertThat(r.active().version()).isEqualTo("1");
  }

  @Test
  void proofKeepsAtMost32IdentitiesOldestDroppedFirst() {
    ExtensionRecord r = ExtensionRecords.installed(snapshot("ext", "1"), Optional.of(identity(0)));
    for (int i = 1; i < 40; i++) {
      r = ExtensionRecords.withVerified(r, r.activeRevision(), identity(i));
    }
    assertThat(r.doctorVerifiedIdentities())
        .hasSize(32)
        .startsWith(identity(8))
        .endsWith(identity(39));
  }

  @Test
  void revokingRemovesOnlyTheProbedIdentity() {
    ExtensionRecord r =
        ExtensionRecords.withVerified(
            ExtensionRecords.installed(snapshot("ext", "1"), Optional.of(identity(1))),
            snapshot("ext", "1").revision(),
            identity(2));

    ExtensionRecord revoked = ExtensionRecords.withRevoked(r, identity(1));

    assertThat(revoked.proofCovers(identity(1))).isFalse();
    assertThat(revoked.proofCovers(identity(2))).isTrue();
    assertThat(ExtensionRecords.withRevoked(revoked, identity(2)).doctorVerifiedRevision())
        .isEmpty();
  }

  @Test
  void rejectsAnActiveRevisionThatIsNotRecorded() {
    ExtensionRecord r = ExtensionRecords.installed(snapshot("ext", "1"), Optional.empty());
    assertThatThrownBy(
            () ->
                new ExtensionRecord(
                    r.id(),
                    true,
                    snapshot("ext", "2").revision(),
                    Optional.empty(),
                    Optional.empty(),
                    List.of(),
                    r.revisions()))
        .isInstanceOf(LoopxException.class)
        .extracting(e -> ((LoopxException) e).kind())
        .isEqualTo(ErrorKind.INVALID_VALUE);
  }
}
