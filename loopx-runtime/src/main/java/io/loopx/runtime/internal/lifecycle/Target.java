package io.loopx.runtime.internal.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.manifest.ExtensionManifest;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A runtime the lifecycle must observe before it can plan: the revision's manifest, where its
 * launcher was saved (empty for a candidate manifest, which is resolved afresh in its directory, or
 * a {@code java_main} runtime), and whether an executed probe is needed.
 *
 * @param id the extension
 * @param manifest the manifest of the revision to observe
 * @param savedEntrypointPath the saved launcher path of an installed revision
 * @param candidateDirectory the directory of a new candidate manifest (install/upgrade), resolved
 *     afresh; empty for an installed revision
 * @param probe whether the doctor probe must be executed
 */
public record Target(
    ExtensionId id,
    ExtensionManifest manifest,
    Optional<String> savedEntrypointPath,
    Optional<Path> candidateDirectory,
    boolean probe) {
  /** Rejects nulls. */
  public Target {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(savedEntrypointPath, "savedEntrypointPath");
    Objects.requireNonNull(candidateDirectory, "candidateDirectory");
  }
}
