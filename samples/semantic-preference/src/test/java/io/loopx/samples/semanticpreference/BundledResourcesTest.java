package io.loopx.samples.semanticpreference;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.CapabilityId;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.Implementation;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.Loopx;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The jar's resources are the checked-in files, byte for byte, and the bundled manifest loads. */
class BundledResourcesTest {

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = BundledResourcesTest.class.getResourceAsStream(name)) {
      assertThat(in).as("resource %s", name).isNotNull();
      return in.readAllBytes();
    }
  }

  @ParameterizedTest
  @CsvSource({
    "/io/loopx/samples/semanticpreference/schemas/request.schema.json, schemas/request.schema.json",
    "/io/loopx/samples/semanticpreference/schemas/response.schema.json, schemas/response.schema.json",
    "/io/loopx/samples/semanticpreference/corpus/preferences.json, corpus/preferences.json",
    "/loopx/bundled/semantic-preference-local/extension.toml, extension.toml",
  })
  void resourceIsTheCheckedInFile(String resource, String file) throws IOException {
    assertThat(resource(resource)).isEqualTo(Files.readAllBytes(Path.of(file)));
  }

  @Test
  void theBundledManifestDeclaresTheContractOfThisProvider(@TempDir Path root) throws IOException {
    Loopx loopx =
        Loopx.builder()
            .runtimeRoot(root)
            .bundledManifest(
                SemanticPreferenceProvider.EXTENSION_ID,
                resource("/loopx/bundled/semantic-preference-local/extension.toml"))
            .build();

    ExtensionManifest manifest =
        loopx.bundledManifest(SemanticPreferenceProvider.EXTENSION_ID).manifest();

    assertThat(manifest.id().value()).isEqualTo(SemanticPreferenceProvider.EXTENSION_ID);
    Permission read = Permission.of("semantic_preference.read");
    assertThat(manifest.permissions()).containsExactly(read);
    RuntimeSpec runtime = manifest.runtime().orElseThrow();
    assertThat(runtime.launchTarget())
        .isEqualTo(new LaunchTarget.JavaMain(SemanticPreferenceProvider.class.getName()));
    assertThat(runtime.protocol()).isEqualTo(ProtocolId.of("semantic_preference_provider_v0"));
    assertThat(runtime.doctorArgs()).containsExactly("--doctor");
    assertThat(runtime.requiredPermissions()).containsExactly(read);
    assertThat(manifest.implementations())
        .containsExactly(
            new Implementation(
                CapabilityId.of(SemanticPreferenceProvider.CAPABILITY_ID),
                ProtocolId.of("semantic_preference_provider_v0")));
    assertThat(manifest.provides()).isEmpty();
  }
}
