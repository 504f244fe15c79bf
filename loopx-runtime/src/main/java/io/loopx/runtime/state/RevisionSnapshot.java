package io.loopx.runtime.state;

import io.loopx.api.InvalidValueException;
import io.loopx.api.Revision;
import io.loopx.api.internal.Arguments;
import io.loopx.api.manifest.ExtensionManifest;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * One recorded revision of an installed extension: the validated manifest snapshot, its revision
 * id, for an {@code entrypoint} runtime the launcher path resolved once at install or upgrade, and
 * the runtime identities proven for this revision.
 *
 * <p>{@code provenIdentities} ({@code proven_identities} in the state file) lists, oldest first,
 * every runtime identity a successful executed doctor probe (install, upgrade, enable, rollback or
 * doctor) recorded for this revision; at most {@link #MAX_PROVEN_IDENTITIES}, the oldest dropped
 * first. A later failed probe does not remove an identity: the list says what was proven, not what
 * is ready now (that is the {@linkplain ExtensionRecord#proofCovers doctor proof}). Rollback and
 * upgrade receipts report whether the runtime they find was proven for their target revision
 * ({@code target_identity_proven}).
 *
 * <p>Immutable. The revision always equals {@code manifest.revision()}; identities are 64 lowercase
 * hex characters, none twice.
 *
 * @param revision the revision id of {@code manifest}
 * @param manifest the normalised manifest snapshot
 * @param entrypointPath the absolute launcher path as found at install/upgrade (empty for {@code
 *     java_main} or runtime-less manifests)
 * @param provenIdentities the runtime identities proven for this revision, oldest first
 */
@API(status = API.Status.STABLE, since = "1.0")
public record RevisionSnapshot(
    Revision revision,
    ExtensionManifest manifest,
    Optional<String> entrypointPath,
    List<String> provenIdentities) {

  /** Bound of {@link #provenIdentities()}. */
  public static final int MAX_PROVEN_IDENTITIES = 32;

  private static final Pattern IDENTITY = Pattern.compile("[0-9a-f]{64}");

  /**
   * Checks that {@code revision} is the hash of {@code manifest} and that the proven identities are
   * at most {@link #MAX_PROVEN_IDENTITIES} distinct 64 lowercase hex strings; copies the list.
   */
  public RevisionSnapshot {
    Arguments.required("revision", revision);
    Arguments.required("manifest", manifest);
    Arguments.required("entrypoint path", entrypointPath);
    provenIdentities = List.copyOf(Arguments.required("proven identities", provenIdentities));
    if (!manifest.revision().equals(revision)) {
      throw new InvalidValueException(
          "revision snapshot", revision.value(), "is not the revision of its manifest");
    }
    if (provenIdentities.size() > MAX_PROVEN_IDENTITIES) {
      throw new InvalidValueException(
          "revision snapshot",
          revision.value(),
          "has more than " + MAX_PROVEN_IDENTITIES + " proven identities");
    }
    if (new HashSet<>(provenIdentities).size() != provenIdentities.size()) {
      throw new InvalidValueException(
          "revision snapshot", revision.value(), "has repeated proven identities");
    }
    for (String identity : provenIdentities) {
      if (!IDENTITY.matcher(identity).matches()) {
        throw new InvalidValueException(
            "revision snapshot",
            revision.value(),
            "has a proven identity that is not 64 lowercase hex: " + identity);
      }
    }
  }

  /** Creates the snapshot of {@code manifest}, computing its revision; no identity proven yet. */
  public static RevisionSnapshot of(ExtensionManifest manifest, Optional<String> entrypointPath) {
    return new RevisionSnapshot(
        Arguments.required("manifest", manifest).revision(), manifest, entrypointPath, List.of());
  }

  /** Returns the manifest's version text. */
  public String version() {
    return manifest.version();
  }
}
