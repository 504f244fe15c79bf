package io.loopx.runtime.state;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The activation state of one installed extension (an entry of {@code state.json}).
 *
 * <p>Invariants, checked on construction: the active and rollback revisions are recorded in {@code
 * revisions}; at most {@link #MAX_REVISIONS} revisions, no duplicates; at most {@link
 * #MAX_VERIFIED_IDENTITIES} verified identities (64 lowercase hex, oldest first, no duplicates);
 * every snapshot's manifest has this id. Immutable; the {@code with...} methods return new records.
 *
 * @param id the extension id
 * @param enabled whether the extension is enabled
 * @param activeRevision the active revision
 * @param rollbackRevision the revision a rollback switches to
 * @param doctorVerifiedRevision the revision the doctor proof is bound to
 * @param doctorVerifiedIdentities runtime identities verified by a successful probe, oldest first
 * @param revisions recorded revision snapshots, oldest first
 */
public record ExtensionRecord(
    ExtensionId id,
    boolean enabled,
    Revision activeRevision,
    Optional<Revision> rollbackRevision,
    Optional<Revision> doctorVerifiedRevision,
    List<String> doctorVerifiedIdentities,
    List<RevisionSnapshot> revisions) {

  /** History bound: the newest revisions kept (the active and rollback targets always stay). */
  public static final int MAX_REVISIONS = 5;

  /** Bound of the verified identity list of a doctor proof. */
  public static final int MAX_VERIFIED_IDENTITIES = 32;

  private static final Pattern IDENTITY = Pattern.compile("[0-9a-f]{64}");

  /** Validates the invariants and copies the lists. */
  public ExtensionRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(activeRevision, "activeRevision");
    Objects.requireNonNull(rollbackRevision, "rollbackRevision");
    Objects.requireNonNull(doctorVerifiedRevision, "doctorVerifiedRevision");
    doctorVerifiedIdentities = List.copyOf(doctorVerifiedIdentities);
    revisions = List.copyOf(revisions);
    if (revisions.isEmpty() || revisions.size() > MAX_REVISIONS) {
      throw invalid(id, "must record 1.." + MAX_REVISIONS + " revisions");
    }
    Set<Revision> seen = new HashSet<>();
    for (RevisionSnapshot s : revisions) {
      if (!seen.add(s.revision())) {
        throw invalid(id, "records revision " + s.revision() + " twice");
      }
      if (!s.manifest().id().equals(id)) {
        throw invalid(id, "records a manifest of `" + s.manifest().id() + "`");
      }
    }
    if (!seen.contains(activeRevision)) {
      throw invalid(id, "active revision " + activeRevision + " is not recorded");
    }
    if (rollbackRevision.isPresent() && !seen.contains(rollbackRevision.get())) {
      throw invalid(id, "rollback revision " + rollbackRevision.get() + " is not recorded");
    }
    if (doctorVerifiedIdentities.size() > MAX_VERIFIED_IDENTITIES
        || new HashSet<>(doctorVerifiedIdentities).size() != doctorVerifiedIdentities.size()) {
      throw invalid(id, "has more than 32 or repeated verified identities");
    }
    for (String identity : doctorVerifiedIdentities) {
      if (!IDENTITY.matcher(identity).matches()) {
        throw invalid(id, "has a verified identity that is not 64 lowercase hex: " + identity);
      }
    }
  }

  private static InvalidValueException invalid(ExtensionId id, String rule) {
    return new InvalidValueException("extension state entry", id.value(), rule);
  }

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
        List.of(snapshot));
  }

  /** Returns this record, or throws {@code EXTENSION_DISABLED} when it is disabled. */
  public ExtensionRecord requireEnabled() {
    if (!enabled) {
      throw new LoopxException(ErrorKind.EXTENSION_DISABLED, "extension `" + id + "` is disabled");
    }
    return this;
  }

  /** Returns the snapshot of the active revision. */
  public RevisionSnapshot active() {
    return snapshot(activeRevision).orElseThrow();
  }

  /** Returns the recorded snapshot of {@code revision}, if any. */
  public Optional<RevisionSnapshot> snapshot(Revision revision) {
    return revisions.stream().filter(s -> s.revision().equals(revision)).findFirst();
  }

  /** Returns whether a rollback revision is recorded. */
  public boolean rollbackAvailable() {
    return rollbackRevision.isPresent();
  }

  /** Returns whether the doctor proof covers the active revision and {@code identity}. */
  public boolean proofCovers(String identity) {
    return doctorVerifiedRevision.equals(Optional.of(activeRevision))
        && doctorVerifiedIdentities.contains(identity);
  }

  /** Returns a copy with the enabled bit set to {@code value}. */
  public ExtensionRecord withEnabled(boolean value) {
    return new ExtensionRecord(
        id,
        value,
        activeRevision,
        rollbackRevision,
        doctorVerifiedRevision,
        doctorVerifiedIdentities,
        revisions);
  }

  /**
   * Returns a copy whose proof records {@code identity} as verified for {@code revision}: appended
   * as the newest identity when the proof is already bound to that revision (the oldest dropped
   * past 32), otherwise a new proof with just this identity.
   */
  public ExtensionRecord withVerified(Revision revision, String identity) {
    List<String> identities = new ArrayList<>();
    if (doctorVerifiedRevision.equals(Optional.of(revision))) {
      identities.addAll(doctorVerifiedIdentities);
      identities.remove(identity);
    }
    identities.add(identity);
    while (identities.size() > MAX_VERIFIED_IDENTITIES) {
      identities.remove(0);
    }
    return new ExtensionRecord(
        id,
        enabled,
        activeRevision,
        rollbackRevision,
        Optional.of(revision),
        identities,
        revisions);
  }

  /**
   * Returns a copy without {@code identity} in its proof; other verified identities stay. When no
   * identity remains the proof revision is cleared too.
   */
  public ExtensionRecord withRevoked(String identity) {
    List<String> identities = new ArrayList<>(doctorVerifiedIdentities);
    identities.remove(identity);
    return new ExtensionRecord(
        id,
        enabled,
        activeRevision,
        rollbackRevision,
        identities.isEmpty() ? Optional.empty() : doctorVerifiedRevision,
        identities,
        revisions);
  }

  /**
   * Returns the record after activating {@code snapshot} as an upgrade: enabled, the new revision
   * active, the previous active revision as rollback target, earlier proofs dropped and a new proof
   * for {@code identity}. The snapshot becomes the newest in history; history keeps the newest
   * {@link #MAX_REVISIONS} revisions and always the active and rollback targets.
   */
  public ExtensionRecord upgradedTo(RevisionSnapshot snapshot, Optional<String> identity) {
    List<RevisionSnapshot> history = new ArrayList<>(revisions);
    history.removeIf(s -> s.revision().equals(snapshot.revision()));
    history.add(snapshot);
    return new ExtensionRecord(
        id,
        true,
        snapshot.revision(),
        Optional.of(activeRevision),
        identity.map(i -> snapshot.revision()),
        identity.map(List::of).orElse(List.of()),
        bounded(history, snapshot.revision(), activeRevision));
  }

  /**
   * Returns the record after a rollback: active and rollback swapped, enabled, the proof for the
   * target recorded for {@code identity}.
   */
  public ExtensionRecord rolledBack(String identity) {
    Revision target = rollbackRevision.orElseThrow();
    return new ExtensionRecord(
            id,
            true,
            target,
            Optional.of(activeRevision),
            doctorVerifiedRevision,
            doctorVerifiedIdentities,
            revisions)
        .withVerified(target, identity);
  }

  /**
   * Keeps the newest {@link #MAX_REVISIONS} snapshots of {@code history} (oldest first), dropping
   * the oldest first but never {@code active} or {@code rollback}.
   */
  static List<RevisionSnapshot> bounded(
      List<RevisionSnapshot> history, Revision active, Revision rollback) {
    List<RevisionSnapshot> kept = new ArrayList<>(history);
    int i = 0;
    while (kept.size() > MAX_REVISIONS && i < kept.size()) {
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
