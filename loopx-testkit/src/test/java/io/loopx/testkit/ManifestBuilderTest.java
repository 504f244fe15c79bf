package io.loopx.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ManifestBuilderTest {
  static final Path DIR = Path.of("/packages/demo-ext");

  @Test
  void standaloneLoadsWithTheDefaults() {
    LoadedManifest loaded = Manifests.standalone("demo-ext").parse(DIR);

    assertThat(loaded.source()).isEqualTo("/packages/demo-ext/extension.toml");
    assertThat(loaded.directory()).isEqualTo(DIR);
    var m = loaded.manifest();
    assertThat(m.id().value()).isEqualTo("demo-ext");
    assertThat(m.version()).isEqualTo("1.0.0");
    assertThat(m.isStandalone()).isTrue();
    RuntimeSpec runtime = m.runtime().orElseThrow();
    assertThat(runtime.protocol().value()).isEqualTo("demo_ext_v0");
    assertThat(runtime.launchTarget()).isEqualTo(new LaunchTarget.Executable("bin/provider"));
    assertThat(runtime.doctorArgs()).containsExactly("--doctor");
    assertThat(runtime.timeoutSeconds()).isEqualTo(RuntimeSpec.DEFAULT_TIMEOUT_SECONDS);
  }

  @Test
  void aJavaClassPathIsWrittenOnlyWithAJavaMain() {
    ManifestBuilder builder =
        Manifests.standalone("demo-ext").javaClassPath("lib/provider.jar", "lib/dep.jar");

    assertThat(builder.parse(DIR).manifest().runtime().orElseThrow().launchTarget())
        .isEqualTo(new LaunchTarget.Executable("bin/provider"));
    assertThat(
            builder
                .javaMain("com.example.Main")
                .parse(DIR)
                .manifest()
                .runtime()
                .orElseThrow()
                .launchTarget())
        .isEqualTo(
            new LaunchTarget.JavaMain(
                "com.example.Main", java.util.List.of("lib/provider.jar", "lib/dep.jar")));
  }

  @Test
  void everyRuntimeKeyRoundTrips() {
    LoadedManifest loaded =
        Manifests.standalone("demo-ext")
            .version("2.0.0-rc.1")
            .permissions("demo.read", "demo.write")
            .requiredPermissions("demo.read")
            .protocol("demo_provider_v3")
            .args("--serve", "with space")
            .doctorArgs("--doctor", "--deep")
            .timeoutSeconds(45)
            .parse(DIR);

    var m = loaded.manifest();
    RuntimeSpec runtime = m.runtime().orElseThrow();
    assertThat(m.version()).isEqualTo("2.0.0-rc.1");
    assertThat(m.permissions())
        .extracting(p -> p.value())
        .containsExactly("demo.read", "demo.write");
    assertThat(runtime.requiredPermissions())
        .extracting(p -> p.value())
        .containsExactly("demo.read");
    assertThat(runtime.protocol().value()).isEqualTo("demo_provider_v3");
    assertThat(runtime.args()).containsExactly("--serve", "with space");
    assertThat(runtime.doctorArgs()).containsExactly("--doctor", "--deep");
    assertThat(runtime.timeoutSeconds()).isEqualTo(45);
  }

  @Test
  void javaMainReplacesTheEntrypoint() {
    var runtime =
        Manifests.standalone("demo-ext")
            .javaMain("com.example.Main")
            .parse(DIR)
            .manifest()
            .runtime();

    assertThat(runtime.orElseThrow().launchTarget())
        .isEqualTo(new LaunchTarget.JavaMain("com.example.Main"));
  }

  @Test
  void providesImplementsAndSurfacesLoad() {
    var provider =
        Manifests.provider("demo-ext", "demo-cap").providesInternal("demo-hidden").parse(DIR);
    assertThat(provider.manifest().runtime()).isEmpty();
    assertThat(provider.manifest().provides())
        .extracting(p -> p.id().value())
        .containsExactly("demo-cap", "demo-hidden");

    var implementer =
        Manifests.implementer("demo-ext", "semantic-preference")
            .protocol("semantic_preference_provider_v0")
            .presentationSurface("demo-board")
            .parse(DIR);
    assertThat(implementer.manifest().implementations())
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.capabilityId().value()).isEqualTo("semantic-preference");
              assertThat(i.protocol().value()).isEqualTo("semantic_preference_provider_v0");
            });
    assertThat(implementer.manifest().presentationSurfaces()).hasSize(1);
  }

  @Test
  void theRevisionDependsOnTheContentOnly() {
    ManifestBuilder base = Manifests.standalone("demo-ext");
    ManifestBuilder fork = base.copy().version("2.0.0");

    assertThat(base.parse(DIR).revision()).isEqualTo(base.parse(Path.of("/elsewhere")).revision());
    assertThat(fork.parse(DIR).revision()).isNotEqualTo(base.parse(DIR).revision());
    assertThat(base.version()).isEqualTo("1.0.0");
  }

  @Test
  void stringsAreQuotedForToml() {
    String odd = "say \"hi\"\\ then\ttab and \u0001 and ünï";

    var runtime = Manifests.standalone("demo-ext").args(odd).parse(DIR).manifest().runtime();

    assertThat(runtime.orElseThrow().args()).containsExactly(odd.trim());
  }

  @Test
  void invalidManifestsAreRejectedByTheRealLoader() {
    assertThatThrownBy(() -> Manifests.builder("demo-ext").parse(DIR))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.MANIFEST_INVALID));
    assertThatThrownBy(() -> Manifests.standalone("demo-ext").requiresLoopxApi(">=2").parse(DIR))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.API_INCOMPATIBLE));
    assertThatThrownBy(
            () -> Manifests.standalone("demo-ext").rawTopLevel("version = \"again\"").parse(DIR))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.MANIFEST_INVALID));
  }

  @Test
  void unknownTopLevelKeysAreDropped() {
    var plain = Manifests.standalone("demo-ext").parse(DIR);
    var extra = Manifests.standalone("demo-ext").rawTopLevel("homepage = \"x\"").parse(DIR);

    assertThat(extra.revision()).isEqualTo(plain.revision());
  }
}
