package io.loopx.samples.cli;

import io.loopx.registry.CapabilityRegistry;
import io.loopx.registry.CatalogScope;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The options of the catalog reads: declared manifests and the internal capabilities. */
final class CatalogOptions {
  @Option(
      names = "--extension-manifest",
      paramLabel = "PATH",
      description = "Also declare this manifest (declared only: nothing installed or run).")
  List<Path> manifests = new ArrayList<>();

  @Option(names = "--include-internal", description = "Also list internal capabilities.")
  boolean includeInternal;

  /** Returns the catalog scope chosen. */
  CatalogScope scope() {
    return includeInternal ? CatalogScope.INCLUDE_INTERNAL : CatalogScope.PUBLIC;
  }

  /** Loads the declared manifests and composes the catalog over the current activation state. */
  CapabilityRegistry registry(Loopx loopx) {
    List<LoadedManifest> declared = new ArrayList<>();
    for (Path file : manifests) {
      declared.add(LoadedManifest.load(file));
    }
    return loopx.registryWith(declared);
  }
}
