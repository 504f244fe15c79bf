package io.loopx.samples.cli;

import io.loopx.runtime.Loopx;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Path;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The {@code (--manifest PATH | --bundled ID)} choice of install and upgrade. */
final class ManifestChoice {
  @Option(names = "--manifest", paramLabel = "PATH", description = "An extension.toml file.")
  @Nullable Path manifest;

  @Option(
      names = "--bundled",
      paramLabel = "ID",
      description =
          "A manifest shipped with this host (loopx-text-stats, semantic-preference-local).")
  @Nullable String bundled;

  /**
   * Loads the chosen manifest.
   *
   * @throws io.loopx.api.LoopxException {@code usage} unless exactly one of the two options is
   *     given; {@code manifest_invalid} for an invalid manifest or an unknown bundled id
   */
  LoadedManifest load(Loopx loopx) {
    return load(loopx::bundledManifest);
  }

  /**
   * Loads the chosen manifest; a bundled one through {@code bundledById} (given a valid id).
   *
   * @throws io.loopx.api.LoopxException as {@link #load(Loopx)}
   */
  LoadedManifest load(Function<String, LoadedManifest> bundledById) {
    Path file = manifest;
    String id = bundled;
    if ((file == null) == (id == null)) {
      throw Arguments.usage("specify exactly one of --manifest PATH or --bundled ID");
    }
    if (file != null) {
      return LoadedManifest.load(file);
    }
    return bundledById.apply(Arguments.extensionId(id).value());
  }
}
