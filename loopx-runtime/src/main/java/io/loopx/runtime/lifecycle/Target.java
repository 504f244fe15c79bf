package io.loopx.runtime.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.manifest.ExtensionManifest;
import java.util.Objects;
import java.util.Optional;

/**
 * A runtime the lifecycle must observe before it can plan: the revision's manifest, where its
 * launcher was saved (empty for a candidate manifest, which is resolved afresh, or a {@code
 * java_main} runtime), and whether an executed probe is needed.
 *
 * @param id the extension
 * @param manifest the manifest of the revision to observe
 * @param savedEntrypointPath the saved launcher path of an installed revision
 * @param candidate whether the manifest is a new candidate (install/upgrade), resolved afresh
 * @param probe whether the doctor probe must be executed
 */
public record Target(
    ExtensionId id,
    ExtensionManifest manifest,
    Optional<String> savedEntrypointPath,
    boolean candidate,
    boolean probe) {
  /** Rejects nulls. */
  public Target {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(savedEntrypointPath, "savedEntrypointPath");
  }
}
