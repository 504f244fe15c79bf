package io.loopx.runtime.state;

import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.Revision;
import io.loopx.api.internal.Arguments;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

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
@API(status = API.Status.STABLE, since = "1.0")
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
    Arguments.required("extension record id", id);
    Arguments.required("active revision", activeRevision);
    Arguments.required("rollback revision", rollbackRevision);
    Arguments.required("doctor verified revision", doctorVerifiedRevision);
    doctorVerifiedIdentities =
        List.copyOf(Arguments.required("doctor verified identities", doctorVerifiedIdentities));
    revisions = List.copyOf(Arguments.required("revisions", revisions));
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

  /** Returns the snapshot of the active revision. */
  public RevisionSnapshot active() {
    return snapshot(activeRevision).orElseThrow();
  }

  /** Returns the recorded snapshot of {@code revision}, if any. */
  public Optional<RevisionSnapshot> snapshot(Revision revision) {
    for (RevisionSnapshot s : revisions) { // a loop: read for every extension on each catalog read
      if (s.revision().equals(revision)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
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
}
