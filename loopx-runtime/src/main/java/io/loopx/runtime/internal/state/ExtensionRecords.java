package io.loopx.runtime.internal.state;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The lifecycle's transitions of an {@link ExtensionRecord} (docs/contract/state.md): install,
 * upgrade, enable/disable, proof record and revoke, rollback, and the history bound. Pure.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ExtensionRecords {
  private ExtensionRecords() {}

  /**
   * Returns the record of a first install: enabled, active, no rollback, proof for the identity.
   */
  public static ExtensionRecord installed(RevisionSnapshot snapshot, Optional<String> identity) {
    return new ExtensionRecord(
        snapshot.manifest().id(),
        true,
        snapshot.revision(),
        Optional.empty(),
        identity.map(i -> snapshot.revision()),
        identity.map(List::of).orElse(List.of()),
        List.of(identity.map(i -> withProven(snapshot, i)).orElse(snapshot)));
  }

  /** Returns {@code r}, or throws {@code EXTENSION_DISABLED} when it is disabled. */
  public static ExtensionRecord requireEnabled(ExtensionRecord r) {
    if (!r.enabled()) {
      throw new LoopxException(
          ErrorKind.EXTENSION_DISABLED, "extension `" + r.id() + "` is disabled");
    }
    return r;
  }

  /** Returns a copy of {@code r} with the enabled bit set to {@code value}. */
  public static ExtensionRecord withEnabled(ExtensionRecord r, boolean value) {
    return new ExtensionRecord(
        r.id(),
        value,
        r.activeRevision(),
        r.rollbackRevision(),
        r.doctorVerifiedRevision(),
        r.doctorVerifiedIdentities(),
        r.revisions());
  }

  /**
   * Returns a copy whose proof records {@code identity} as verified for {@code revision}: appended
   * as the newest identity when the proof is already bound to that revision (the oldest dropped
   * past 32), otherwise a new proof with just this identity. The identity is also added to the
   * revision's {@link RevisionSnapshot#provenIdentities() proven identities}.
   */
  public static ExtensionRecord withVerified(
      ExtensionRecord r, Revision revision, String identity) {
    List<String> identities = new ArrayList<>();
    if (r.doctorVerifiedRevision().equals(Optional.of(revision))) {
      identities.addAll(r.doctorVerifiedIdentities());
      identities.remove(identity);
    }
    identities.add(identity);
    while (identities.size() > ExtensionRecord.MAX_VERIFIED_IDENTITIES) {
      identities.remove(0);
    }
    return new ExtensionRecord(
        r.id(),
        r.enabled(),
        r.activeRevision(),
        r.rollbackRevision(),
        Optional.of(revision),
        identities,
        r.revisions().stream()
            .map(snap -> snap.revision().equals(revision) ? withProven(snap, identity) : snap)
            .toList());
  }

  /**
   * Returns whether {@code identity}, the runtime identity found now, was proven for {@code
   * revision} of {@code r} before: the {@code target_identity_proven} of rollback and upgrade
   * receipts. False when the identity is unknown or the revision is not recorded.
   */
  public static boolean provenFor(ExtensionRecord r, Revision revision, Optional<String> identity) {
    return identity.isPresent()
        && r.snapshot(revision)
            .map(snap -> snap.provenIdentities().contains(identity.get()))
            .orElse(false);
  }

  /**
   * Returns {@code snapshot} with {@code identity} as its newest proven identity (moved there if
   * already listed), dropping the oldest past {@link RevisionSnapshot#MAX_PROVEN_IDENTITIES}.
   */
  public static RevisionSnapshot withProven(RevisionSnapshot snapshot, String identity) {
    List<String> proven = new ArrayList<>(snapshot.provenIdentities());
    proven.remove(identity);
    proven.add(identity);
    while (proven.size() > RevisionSnapshot.MAX_PROVEN_IDENTITIES) {
      proven.remove(0);
    }
    return new RevisionSnapshot(
        snapshot.revision(), snapshot.manifest(), snapshot.entrypointPath(), proven);
  }

  /**
   * Returns a copy without {@code identity} in its proof; other verified identities stay. When no
   * identity remains the proof revision is cleared too.
   */
  public static ExtensionRecord withRevoked(ExtensionRecord r, String identity) {
    List<String> identities = new ArrayList<>(r.doctorVerifiedIdentities());
    identities.remove(identity);
    return new ExtensionRecord(
        r.id(),
        r.enabled(),
        r.activeRevision(),
        r.rollbackRevision(),
        identities.isEmpty() ? Optional.empty() : r.doctorVerifiedRevision(),
        identities,
        r.revisions());
  }

  /**
   * Returns the record after activating {@code snapshot} as an upgrade: enabled, the new revision
   * active, the previous active revision as rollback target, earlier proofs dropped and a new proof
   * for {@code identity}, which is also added to the snapshot's proven identities (after those of
   * an earlier copy of the same revision). The snapshot becomes the newest in history; history
   * keeps the newest {@link ExtensionRecord#MAX_REVISIONS} revisions and always the active and
   * rollback targets.
   */
  public static ExtensionRecord upgradedTo(
      ExtensionRecord r, RevisionSnapshot snapshot, Optional<String> identity) {
    List<RevisionSnapshot> history = new ArrayList<>(r.revisions());
    // An earlier copy of the same revision hands its proven identities on (oldest first).
    RevisionSnapshot newest = snapshot;
    Optional<RevisionSnapshot> earlier = r.snapshot(snapshot.revision());
    if (earlier.isPresent()) {
      List<String> proven = new ArrayList<>(earlier.get().provenIdentities());
      proven.addAll(snapshot.provenIdentities());
      newest =
          new RevisionSnapshot(
              snapshot.revision(), snapshot.manifest(), snapshot.entrypointPath(), List.of());
      for (String i : proven) {
        newest = withProven(newest, i);
      }
    }
    if (identity.isPresent()) {
      newest = withProven(newest, identity.get());
    }
    history.removeIf(s -> s.revision().equals(snapshot.revision()));
    history.add(newest);
    return new ExtensionRecord(
        r.id(),
        true,
        snapshot.revision(),
        Optional.of(r.activeRevision()),
        identity.map(i -> snapshot.revision()),
        identity.map(List::of).orElse(List.of()),
        bounded(history, snapshot.revision(), r.activeRevision()));
  }

  /**
   * Returns the record after a rollback: active and rollback swapped, enabled, the proof for the
   * target recorded for {@code identity}.
   */
  public static ExtensionRecord rolledBack(ExtensionRecord r, String identity) {
    Revision target = r.rollbackRevision().orElseThrow();
    ExtensionRecord rolledBack =
        new ExtensionRecord(
            r.id(),
            true,
            target,
            Optional.of(r.activeRevision()),
            r.doctorVerifiedRevision(),
            r.doctorVerifiedIdentities(),
            r.revisions());
    return withVerified(rolledBack, target, identity);
  }

  /**
   * Keeps the newest {@link ExtensionRecord#MAX_REVISIONS} snapshots of {@code history} (oldest
   * first), dropping the oldest first but never {@code active} or {@code rollback}.
   */
  public static List<RevisionSnapshot> bounded(
      List<RevisionSnapshot> history, Revision active, Revision rollback) {
    List<RevisionSnapshot> kept = new ArrayList<>(history);
    int i = 0;
    while (kept.size() > ExtensionRecord.MAX_REVISIONS && i < kept.size()) {
      Revision r = kept.get(i).revision();
      if (r.equals(active) || r.equals(rollback)) {
        i++;
      } else {
        kept.remove(i);
      }
    }
    return kept;
  }
}
