package io.loopx.runtime.manifest;

import io.loopx.api.Revision;
import io.loopx.api.manifest.ExtensionManifest;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A manifest that a {@link ManifestLoader} read and validated, with where it came from.
 *
 * @param manifest the validated, normalised manifest
 * @param source the file path as given, or the caller-supplied source name
 * @param directory the manifest's directory, against which a relative {@code entrypoint} path is
 *     resolved
 * @param revision the manifest's revision id (equal to {@code manifest.revision()})
 */
public record LoadedManifest(
    ExtensionManifest manifest, String source, Path directory, Revision revision) {

  /** Rejects nulls and a revision that is not the manifest's own. */
  public LoadedManifest {
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(revision, "revision");
    if (!revision.equals(manifest.revision())) {
      throw new IllegalArgumentException(
          "revision " + revision + " is not the manifest's revision " + manifest.revision());
    }
  }
}
