package io.loopx.samples.textstats;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.Loopx;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The jar's resources are the checked-in files, byte for byte, and the manifests load. */
class BundledResourcesTest {

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = BundledResourcesTest.class.getResourceAsStream(name)) {
      assertThat(in).as("resource %s", name).isNotNull();
      return in.readAllBytes();
    }
  }

  @ParameterizedTest
  @CsvSource({
    "/io/loopx/samples/textstats/schemas/request.schema.json, schemas/request.schema.json",
    "/io/loopx/samples/textstats/schemas/response.schema.json, schemas/response.schema.json",
    "/loopx/bundled/loopx-text-stats/extension.toml, extension.toml",
    "/loopx/bundled/loopx-text-stats/upgrade/extension.toml, upgrade/extension.toml",
  })
  void resourceIsTheCheckedInFile(String resource, String file) throws IOException {
    assertThat(resource(resource)).isEqualTo(Files.readAllBytes(Path.of(file)));
  }

  @Test
  void bundledManifestsLoadWithTheirVersions(@TempDir Path root) throws IOException {
    Loopx loopx =
        Loopx.builder()
            .runtimeRoot(root)
            .bundledManifest(
                "loopx-text-stats", resource("/loopx/bundled/loopx-text-stats/extension.toml"))
            .bundledManifest(
                "loopx-text-stats-upgrade",
                resource("/loopx/bundled/loopx-text-stats/upgrade/extension.toml"))
            .build();

    LoadedManifest current = loopx.bundledManifest("loopx-text-stats");
    LoadedManifest upgrade = loopx.bundledManifest("loopx-text-stats-upgrade");

    assertThat(current.manifest().id().value()).isEqualTo(TextStatsProvider.EXTENSION_ID);
    assertThat(current.manifest().version()).isEqualTo("1.0.0");
    assertThat(current.manifest().permissions()).isEmpty();
    assertThat(upgrade.manifest().version()).isEqualTo("1.1.0");
    assertThat(upgrade.manifest().revision()).isNotEqualTo(current.manifest().revision());
  }
}
