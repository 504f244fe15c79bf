package io.loopx.registry;

import static io.loopx.registry.Fixtures.ECHO;
import static io.loopx.registry.Fixtures.PROTOCOL;
import static io.loopx.registry.Fixtures.VERSION;
import static io.loopx.registry.Fixtures.cap;
import static io.loopx.registry.Fixtures.capabilities;
import static io.loopx.registry.Fixtures.contribution;
import static io.loopx.registry.Fixtures.installed;
import static io.loopx.registry.Fixtures.manifest;
import static io.loopx.registry.Fixtures.pid;
import static io.loopx.registry.Fixtures.publicCapability;
import static io.loopx.registry.Fixtures.ready;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.spi.Origin;
import io.loopx.api.spi.ProviderState;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Composition order, provider states, and the catalog conflict rules of docs/contract/registry.md.
 */
class CatalogCompositionTest {

  private static LoopxException sealFails(RegistryAssembly assembly) {
    return catchThrowableOfType(LoopxException.class, assembly::seal);
  }

  @Test
  void composesBuiltinsThenDeclaredInGivenOrderThenInstalledById() {
    CapabilityRegistry r =
        CapabilityRegistry.assembly(VERSION)
            // added in a scrambled order on purpose
            .install(ready(manifest("zeta").provides("zeta-cap").build()))
            .declare(manifest("mmm").provides("mmm-cap").build())
            .addBuiltin(capabilities("core", "loopx-core", "core-b", "core-a"))
            .install(ready(manifest("alpha").provides("alpha-cap").build()))
            .declare(manifest("bbb").provides("bbb-cap").build())
            .addBuiltin(capabilities("extra", "extra-core", "extra-cap"))
            .seal();

    assertThat(r.providers())
        .extracting(p -> p.id().value())
        .containsExactly("loopx-core", "extra-core", "mmm", "bbb", "alpha", "zeta");
    assertThat(r.capabilities(CatalogScope.PUBLIC))
        .extracting(c -> c.id().value())
        .containsExactly(
            "core-b", "core-a", "extra-cap", "mmm-cap", "bbb-cap", "alpha-cap", "zeta-cap");
  }

  @Test
  void providerStatesFollowTheirRole() {
    ExtensionManifest declared = manifest("declared-ext").provides("d-cap").build();
    CapabilityRegistry r =
        Fixtures.withCore()
            .declare(declared)
            .install(installed(manifest("off").version("2.0.0").build(), false, false))
            .install(installed(manifest("stale").build(), true, false))
            .install(ready(manifest("fresh").build()))
            .seal();

    ProviderEntry core = r.provider(ProviderId.LOOPX_CORE).orElseThrow();
    assertThat(core.state()).isEqualTo(ProviderState.BUILTIN);
    assertThat(core.origin()).isEqualTo(Origin.BUILTIN);
    assertThat(core.version()).isEqualTo(VERSION);
    assertThat(core.manifest()).isEmpty();

    ProviderEntry d = r.provider(pid("declared-ext")).orElseThrow();
    assertThat(d.state()).isEqualTo(new ProviderState(true, false, false, false));
    assertThat(d.origin()).isEqualTo(Origin.EXTENSION);
    assertThat(d.manifest()).contains(declared);
    assertThat(d.version()).isEqualTo("1.0.0");

    assertThat(r.provider(pid("off")).orElseThrow().state())
        .isEqualTo(new ProviderState(true, true, false, false));
    assertThat(r.provider(pid("off")).orElseThrow().version()).isEqualTo("2.0.0");
    assertThat(r.provider(pid("stale")).orElseThrow().state())
        .isEqualTo(new ProviderState(true, true, true, false));
    assertThat(r.provider(pid("fresh")).orElseThrow().state())
        .isEqualTo(new ProviderState(true, true, true, true));
    assertThat(r.capability(cap("d-cap")).orElseThrow().origin()).isEqualTo(Origin.EXTENSION);
  }

  @Test
  void standaloneExtensionIsAProviderWithNoCapabilities() {
    CapabilityRegistry r =
        CapabilityRegistry.assembly(VERSION).install(ready(manifest("text-stats").build())).seal();

    assertThat(r.provider(pid("text-stats"))).isPresent();
    assertThat(r.capabilities(CatalogScope.INCLUDE_INTERNAL)).isEmpty();
    assertThat(r.implementations()).isEmpty();
  }

  @Test
  void installedExtensionReplacesDeclarationOnlyManifestWithSameId() {
    ExtensionManifest declaredVersion =
        manifest("ext").version("1.0.0").provides("old-cap").build();
    ExtensionManifest installedVersion =
        manifest("ext").version("2.0.0").provides("new-cap").build();
    CapabilityRegistry r =
        CapabilityRegistry.assembly(VERSION)
            .declare(declaredVersion)
            .declare(manifest("other").provides("other-cap").build())
            .install(installed(installedVersion, true, false))
            .seal();

    assertThat(r.providers()).extracting(p -> p.id().value()).containsExactly("other", "ext");
    ProviderEntry ext = r.provider(pid("ext")).orElseThrow();
    assertThat(ext.version()).isEqualTo("2.0.0");
    assertThat(ext.state().installed()).isTrue();
    assertThat(r.capability(cap("old-cap"))).isEmpty();
    assertThat(r.capability(cap("new-cap"))).isPresent();
  }

  @Test
  void identicalRepeatsOfExtensionsAreNoOpsButDifferentOnesConflict() {
    ExtensionManifest m = manifest("ext").provides("cap-a").build();
    CapabilityRegistry r =
        CapabilityRegistry.assembly(VERSION)
            .declare(m)
            .declare(m)
            .install(ready(manifest("inst").build()))
            .install(ready(manifest("inst").build()))
            .seal();
    assertThat(r.providers()).hasSize(2);

    LoopxException declared =
        sealFails(
            CapabilityRegistry.assembly(VERSION)
                .declare(m)
                .declare(manifest("ext").version("9.9.9").provides("cap-a").build()));
    assertThat(declared.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(declared.getMessage())
        .contains("duplicate provider `ext`")
        .contains(m.revision().value());

    LoopxException inst =
        sealFails(
            CapabilityRegistry.assembly(VERSION)
                .install(ready(manifest("inst").build()))
                .install(installed(manifest("inst").build(), true, false)));
    assertThat(inst.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(inst.getMessage()).contains("duplicate provider `inst`").contains("ready=false");
  }

  @Test
  void extensionIdCollidingWithBuiltinProviderFailsClosed() {
    for (RegistryAssembly a :
        List.of(
            Fixtures.withCore().declare(manifest("loopx-core").provides("x-cap").build()),
            Fixtures.withCore().install(ready(manifest("loopx-core").build())))) {
      LoopxException e = sealFails(a);
      assertThat(e.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
      assertThat(e.getMessage())
          .contains("duplicate provider `loopx-core`")
          .contains("built-in provider `loopx-core` (contribution `core`)")
          .containsPattern("(declared|installed) extension `loopx-core`");
    }
  }

  @Test
  void extensionCapabilityCollidingWithBuiltinCapabilityFailsClosed() {
    LoopxException e =
        sealFails(
            Fixtures.withCore()
                .install(ready(manifest("ext").provides("projection-sink").build())));
    assertThat(e.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(e.getMessage())
        .contains("duplicate capability `projection-sink`")
        .contains("built-in provider `loopx-core`")
        .contains("installed extension `ext`");
  }

  @Test
  void twoExtensionsProvidingOneCapabilityConflictNamingBoth() {
    LoopxException e =
        sealFails(
            CapabilityRegistry.assembly(VERSION)
                .declare(manifest("first").provides("shared").build())
                .install(ready(manifest("second").provides("shared").build())));
    assertThat(e.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(e.getMessage())
        .contains("duplicate capability `shared`")
        .contains("declared extension `first`")
        .contains("installed extension `second`");
  }

  @Test
  void implementationOfUnknownCapabilityFailsClosed() {
    LoopxException ext =
        sealFails(
            Fixtures.withCore()
                .install(ready(manifest("ext").implementsCapability("nowhere").build())));
    assertThat(ext.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(ext.getMessage())
        .contains("installed extension `ext`")
        .contains("unknown capability `nowhere`");

    LoopxException builtin =
        sealFails(
            CapabilityRegistry.assembly(VERSION)
                .addBuiltin(
                    contribution(
                        "core",
                        "loopx-core",
                        ctx -> ctx.addImplementation(cap("nowhere"), PROTOCOL, ECHO))));
    assertThat(builtin.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(builtin.getMessage())
        .contains("built-in provider `loopx-core`")
        .contains("unknown capability `nowhere`");
  }

  @Test
  void implementationsMayTargetCapabilitiesOfAnySourceIncludingLaterOnes() {
    CapabilityRegistry r =
        CapabilityRegistry.assembly(VERSION)
            // the built-in implements a capability that a later contribution and an extension own
            .addBuiltin(
                contribution(
                    "impl",
                    "impl-provider",
                    ctx -> {
                      ctx.addImplementation(cap("later"), PROTOCOL, ECHO);
                      ctx.addImplementation(cap("from-ext"), PROTOCOL, ECHO);
                    }))
            .addBuiltin(capabilities("core", "loopx-core", "later"))
            .install(
                ready(
                    manifest("ext").provides("from-ext").implementsCapability("from-ext").build()))
            .seal();

    assertThat(r.implementations(cap("from-ext")))
        .extracting(i -> i.providerId().value())
        .containsExactly("impl-provider", "ext");
    assertThat(r.implementations(cap("later"))).hasSize(1);
  }

  @Test
  void capabilityWhoseOriginDiffersFromItsProviderFailsNamingBoth() {
    ProviderEntry core =
        new ProviderEntry(
            ProviderId.LOOPX_CORE,
            Origin.BUILTIN,
            ProviderState.BUILTIN,
            VERSION,
            Optional.empty(),
            Optional.of("core"));
    CapabilityEntry mislabelled =
        new CapabilityEntry(publicCapability("alpha"), Origin.EXTENSION, ProviderId.LOOPX_CORE);

    assertThatThrownBy(
            () -> CapabilityRegistry.of(VERSION, List.of(core), List.of(mislabelled), List.of()))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT))
        .hasMessageContaining("capability `alpha` has origin extension")
        .hasMessageContaining("provider `loopx-core` has origin builtin");
  }

  @Test
  void finalValidationRejectsInconsistentGraphs() {
    ProviderEntry core =
        new ProviderEntry(
            ProviderId.LOOPX_CORE,
            Origin.BUILTIN,
            ProviderState.BUILTIN,
            VERSION,
            Optional.empty(),
            Optional.of("core"));
    CapabilityEntry alpha =
        new CapabilityEntry(publicCapability("alpha"), Origin.BUILTIN, ProviderId.LOOPX_CORE);
    ImplementationEntry inProcess =
        new ImplementationEntry(cap("alpha"), PROTOCOL, ProviderId.LOOPX_CORE, Optional.of(ECHO));
    ImplementationEntry noHandler =
        new ImplementationEntry(cap("alpha"), PROTOCOL, ProviderId.LOOPX_CORE, Optional.empty());

    List<Runnable> invalid =
        List.of(
            () -> CapabilityRegistry.of(VERSION, List.of(core, core), List.of(), List.of()),
            () -> CapabilityRegistry.of(VERSION, List.of(core), List.of(alpha, alpha), List.of()),
            () -> CapabilityRegistry.of(VERSION, List.of(), List.of(alpha), List.of()),
            () ->
                CapabilityRegistry.of(
                    VERSION, List.of(core), List.of(alpha), List.of(inProcess, inProcess)),
            () -> CapabilityRegistry.of(VERSION, List.of(core), List.of(alpha), List.of(noHandler)),
            () -> CapabilityRegistry.of(VERSION, List.of(), List.of(), List.of(inProcess)));
    for (Runnable r : invalid) {
      assertThatThrownBy(r::run)
          .isInstanceOfSatisfying(
              LoopxException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT));
    }
    assertThat(CapabilityRegistry.of(VERSION, List.of(core), List.of(alpha), List.of(inProcess)))
        .isNotNull();
  }

  @Test
  void internalCapabilitiesAreHiddenFromThePublicCatalogButResolvable() {
    CapabilityRegistry r =
        Fixtures.withCore()
            .addBuiltin(
                contribution(
                    "sink",
                    "sink-provider",
                    ctx -> ctx.addImplementation(cap("projection-sink"), PROTOCOL, ECHO)))
            .seal();

    assertThat(r.capabilities(CatalogScope.PUBLIC))
        .extracting(c -> c.id().value())
        .containsExactly("semantic-preference");
    assertThat(r.capabilities(CatalogScope.INCLUDE_INTERNAL))
        .extracting(c -> c.id().value())
        .containsExactly("semantic-preference", "projection-sink");
    assertThat(r.capability(cap("projection-sink"))).isPresent();
    assertThat(r.resolve(cap("projection-sink"), PROTOCOL).isResolved()).isTrue();
  }

  @Test
  void apiIncompatibleInstalledExtensionIsNeverReady() {
    CapabilityRegistry r =
        Fixtures.withCore()
            .install(
                ready(
                    manifest("future")
                        .requires(">=2")
                        .implementsCapability("semantic-preference")
                        .build()))
            .seal();

    ProviderEntry p = r.provider(pid("future")).orElseThrow();
    assertThat(p.apiCompatible()).isFalse();
    assertThat(p.state()).isEqualTo(new ProviderState(true, true, true, false));
  }

  @Test
  void installedExtensionRejectsReadyWithoutEnabled() {
    ExtensionManifest m = manifest("ext").build();
    assertThatThrownBy(() -> installed(m, false, true))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE))
        .hasMessageContaining("ready requires enabled");
  }
}
