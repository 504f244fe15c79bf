package io.loopx.runtime.state;

import io.loopx.api.InvalidValueException;
import io.loopx.api.Revision;
import io.loopx.api.manifest.ExtensionManifest;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One recorded revision of an installed extension: the validated manifest snapshot, its revision
 * id, and for an {@code entrypoint} runtime the launcher path resolved once at install or upgrade.
 *
 * <p>Immutable. The revision always equals {@code manifest.revision()}.
 *
 * @param revision the revision id of {@code manifest}
 * @param manifest the normalised manifest snapshot
 * @param entrypointPath the absolute launcher path as found at install/upgrade (empty for {@code
 *     java_main} or runtime-less manifests)
 */
@API(status = API.Status.STABLE, since = "0.1")
public record RevisionSnapshot(
    Revision revision, ExtensionManifest manifest, Optional<String> entrypointPath) {

  /** Checks that {@code revision} is the hash of {@code manifest}. */
  public RevisionSnapshot {
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(entrypointPath, "entrypointPath");
    if (!manifest.revision().equals(revision)) {
      throw new InvalidValueException(
          "revision snapshot", revision.value(), "is not the revision of its manifest");
    }
  }

  /** Creates the snapshot of {@code manifest}, computing its revision. */
  public static RevisionSnapshot of(ExtensionManifest manifest, Optional<String> entrypointPath) {
    return new RevisionSnapshot(manifest.revision(), manifest, entrypointPath);
  }

  /** Returns the manifest's version text. */
  public String version() {
    return manifest.version();
  }
}
