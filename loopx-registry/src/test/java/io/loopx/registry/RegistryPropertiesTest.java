package io.loopx.registry;

import static io.loopx.registry.Fixtures.ECHO;
import static io.loopx.registry.Fixtures.OTHER_PROTOCOL;
import static io.loopx.registry.Fixtures.PROTOCOL;
import static io.loopx.registry.Fixtures.VERSION;
import static io.loopx.registry.Fixtures.cap;
import static io.loopx.registry.Fixtures.contribution;
import static io.loopx.registry.Fixtures.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.Origin;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** QuickTheories properties of composition, conflict detection and resolution. */
class RegistryPropertiesTest {
  private static final int EXAMPLES = 150;

  /** A built-in contribution: its provider, capabilities and in-process implementation targets. */
  record BuiltinSpec(
      String id, String provider, List<ProvidedCapability> caps, List<String> impls) {
    BuiltinContribution toContribution(Random order) {
      List<ProvidedCapability> c = new ArrayList<>(caps);
      if (order != null) {
        Collections.shuffle(c, order);
      }
      return contribution(
          id,
          provider,
          ctx -> {
            c.forEach(ctx::addCapability);
            impls.forEach(i -> ctx.addImplementation(cap(i), PROTOCOL, ECHO));
          });
    }
  }

  /** An extension: declared only or installed with flags. */
  record ExtSpec(ExtensionManifest manifest, boolean installed, boolean enabled, boolean ready) {}

  /** A valid random registration scenario. */
  record Scenario(List<BuiltinSpec> builtins, List<ExtSpec> extensions) {

    static Scenario random(long seed) {
      Random r = new Random(seed);
      List<BuiltinSpec> builtins = new ArrayList<>();
      List<String> targets = new ArrayList<>();
      int nb = 1 + r.nextInt(3);
      List<List<ProvidedCapability>> builtinCaps = new ArrayList<>();
      for (int i = 0; i < nb; i++) {
        List<ProvidedCapability> caps = new ArrayList<>();
        int nc = 1 + r.nextInt(3);
        for (int j = 0; j < nc; j++) {
          String id = "bc" + i + "x" + j;
          caps.add(
              Fixtures.capability(
                  id, r.nextInt(10) < 3 ? Visibility.INTERNAL : Visibility.PUBLIC, Map.of()));
          targets.add(id);
        }
        builtinCaps.add(caps);
      }
      List<Fixtures.ManifestBuilder> builders = new ArrayList<>();
      List<boolean[]> flags = new ArrayList<>();
      int nd = r.nextInt(3);
      for (int i = 0; i < nd; i++) {
        Fixtures.ManifestBuilder m = manifest("d" + i);
        for (int j = 0, n = r.nextInt(3); j < n; j++) {
          m.provides("dc" + i + "x" + j);
          targets.add("dc" + i + "x" + j);
        }
        builders.add(m);
        flags.add(new boolean[] {false, false, false});
      }
      int ne = r.nextInt(4);
      for (int i = 0; i < ne; i++) {
        Fixtures.ManifestBuilder m = manifest("e" + i).version("1." + i + ".0");
        for (int j = 0, n = r.nextInt(2); j < n; j++) {
          m.provides("ec" + i + "x" + j);
          targets.add("ec" + i + "x" + j);
        }
        boolean enabled = r.nextBoolean();
        builders.add(m);
        flags.add(new boolean[] {true, enabled, enabled && r.nextBoolean()});
      }
      // a declaration-only manifest shadowed by the installed extension with the same id
      boolean shadow = ne > 0 && r.nextInt(10) < 3;
      for (int i = 0; i < nb; i++) {
        List<String> impls = new ArrayList<>();
        if (r.nextBoolean()) {
          impls.add(targets.get(r.nextInt(targets.size())));
        }
        builtins.add(new BuiltinSpec("b" + i, "bp" + i, builtinCaps.get(i), impls));
      }
      List<ExtSpec> extensions = new ArrayList<>();
      for (int i = 0; i < builders.size(); i++) {
        Fixtures.ManifestBuilder m = builders.get(i);
        if (r.nextBoolean()) {
          m.implementsCapability(targets.get(r.nextInt(targets.size())));
        }
        boolean[] f = flags.get(i);
        extensions.add(new ExtSpec(m.build(), f[0], f[1], f[2]));
      }
      if (shadow) {
        extensions.add(
            new ExtSpec(
                manifest("e0").version("0.0.1").provides("shadowed-cap").build(),
                false,
                false,
                false));
      }
      return new Scenario(builtins, extensions);
    }

    /** Adds everything to {@code a}; with {@code order}, in a shuffled, interleaved order. */
    RegistryAssembly apply(RegistryAssembly a, Random order) {
      List<BuiltinSpec> b = new ArrayList<>(builtins);
      List<ExtSpec> e = new ArrayList<>(extensions);
      if (order != null) {
        Collections.shuffle(b, order);
        Collections.shuffle(e, order);
      }
      List<Consumer<RegistryAssembly>> calls = new ArrayList<>();
      b.forEach(spec -> calls.add(x -> x.addBuiltin(spec.toContribution(order))));
      e.forEach(
          spec ->
              calls.add(
                  x -> {
                    if (spec.installed()) {
                      x.install(
                          new InstalledExtension(spec.manifest(), spec.enabled(), spec.ready()));
                    } else {
                      x.declare(spec.manifest());
                    }
                  }));
      if (order != null) {
        // interleaving across roles must not matter; within a role the order is kept
        List<Consumer<RegistryAssembly>> builtinCalls = calls.subList(0, b.size());
        List<Consumer<RegistryAssembly>> extCalls = calls.subList(b.size(), calls.size());
        List<Consumer<RegistryAssembly>> merged = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < builtinCalls.size() || j < extCalls.size()) {
          boolean takeBuiltin =
              j >= extCalls.size() || (i < builtinCalls.size() && order.nextBoolean());
          merged.add(takeBuiltin ? builtinCalls.get(i++) : extCalls.get(j++));
        }
        merged.forEach(c -> c.accept(a));
      } else {
        calls.forEach(c -> c.accept(a));
      }
      return a;
    }

    CapabilityRegistry seal(Random order) {
      return apply(CapabilityRegistry.assembly(VERSION), order).seal();
    }
  }

  private static Set<JsonNode> elements(JsonNode array) {
    Set<JsonNode> set = new HashSet<>();
    array.forEach(set::add);
    return set;
  }

  private static Set<List<String>> implementations(CapabilityRegistry r) {
    return r.implementations().stream()
        .map(i -> List.of(i.capabilityId().value(), i.protocol().value(), i.providerId().value()))
        .collect(Collectors.toSet());
  }

  @Test
  void anyPermutationOfRegistrationsYieldsTheSameCatalogAsASet() {
    qt().withExamples(EXAMPLES)
        .forAll(longs().all(), longs().all())
        .checkAssert(
            (scenarioSeed, orderSeed) -> {
              Scenario s = Scenario.random(scenarioSeed);
              CapabilityRegistry reference = s.seal(null);
              Random order = new Random(orderSeed);
              CapabilityRegistry permuted = s.seal(order);

              JsonNode a = reference.catalogJson(CatalogScope.INCLUDE_INTERNAL);
              JsonNode b = permuted.catalogJson(CatalogScope.INCLUDE_INTERNAL);
              assertThat(elements(b.get("capabilities")))
                  .isEqualTo(elements(a.get("capabilities")));
              assertThat(elements(b.get("providers"))).isEqualTo(elements(a.get("providers")));
              assertThat(implementations(permuted)).isEqualTo(implementations(reference));
              assertThat(elements(permuted.catalogJson(CatalogScope.PUBLIC).get("capabilities")))
                  .isEqualTo(
                      elements(reference.catalogJson(CatalogScope.PUBLIC).get("capabilities")));
              // installed extensions list by id whatever the order
              List<String> installedIds =
                  permuted.providers().stream()
                      .filter(p -> p.state().installed() && p.origin() == Origin.EXTENSION)
                      .map(p -> p.id().value())
                      .toList();
              assertThat(installedIds).isSorted();
            });
  }

  @Test
  void builtinsListInRegistrationOrder() {
    qt().withExamples(EXAMPLES)
        .forAll(longs().all(), longs().all())
        .checkAssert(
            (scenarioSeed, orderSeed) -> {
              Scenario s = Scenario.random(scenarioSeed);
              List<BuiltinSpec> order = new ArrayList<>(s.builtins());
              Collections.shuffle(order, new Random(orderSeed));
              RegistryAssembly a = CapabilityRegistry.assembly(VERSION);
              order.forEach(spec -> a.addBuiltin(spec.toContribution(null)));
              s.extensions().stream()
                  .filter(ExtSpec::installed)
                  .forEach(
                      e -> a.install(new InstalledExtension(e.manifest(), e.enabled(), e.ready())));
              s.extensions().stream()
                  .filter(e -> !e.installed())
                  .forEach(e -> a.declare(e.manifest()));
              CapabilityRegistry r = a.seal();

              List<String> expectedProviders = order.stream().map(BuiltinSpec::provider).toList();
              List<String> expectedCaps =
                  order.stream()
                      .flatMap(spec -> spec.caps().stream())
                      .map(c -> c.id().value())
                      .toList();
              assertThat(
                      r.providers().stream()
                          .filter(p -> p.origin() == Origin.BUILTIN)
                          .map(p -> p.id().value())
                          .toList())
                  .isEqualTo(expectedProviders);
              assertThat(
                      r.capabilities(CatalogScope.INCLUDE_INTERNAL).stream()
                          .filter(c -> c.origin() == Origin.BUILTIN)
                          .map(c -> c.id().value())
                          .toList())
                  .isEqualTo(expectedCaps);
              // built-ins come first
              assertThat(r.providers().subList(0, expectedProviders.size()))
                  .allMatch(p -> p.origin() == Origin.BUILTIN);
            });
  }

  @Test
  void anyInjectedDuplicateFailsClosedNamingBothProviders() {
    qt().withExamples(EXAMPLES)
        .forAll(longs().all(), integers().between(0, 3), longs().all())
        .checkAssert(
            (scenarioSeed, kind, pickSeed) -> {
              Scenario s = Scenario.random(scenarioSeed);
              CapabilityRegistry valid = s.seal(null);
              Random pick = new Random(pickSeed);
              List<CapabilityEntry> caps = valid.capabilities(CatalogScope.INCLUDE_INTERNAL);
              CapabilityEntry victim = caps.get(pick.nextInt(caps.size()));
              String owner = victim.providerId().value();
              String intruder;
              RegistryAssembly a = CapabilityRegistry.assembly(VERSION);
              switch (kind) {
                case 0 -> {
                  // another built-in registers the same capability id, at a random position
                  intruder = "dup-provider";
                  BuiltinSpec dup =
                      new BuiltinSpec(
                          "dup",
                          intruder,
                          List.of(Fixtures.publicCapability(victim.id().value())),
                          List.of());
                  if (pick.nextBoolean()) {
                    a.addBuiltin(dup.toContribution(null));
                    s.apply(a, null);
                  } else {
                    s.apply(a, null);
                    a.addBuiltin(dup.toContribution(null));
                  }
                }
                case 1 -> {
                  intruder = "dup-ext";
                  s.apply(a, null);
                  a.install(
                      Fixtures.ready(manifest(intruder).provides(victim.id().value()).build()));
                }
                case 2 -> {
                  intruder = "dup-decl";
                  s.apply(a, null);
                  a.declare(manifest(intruder).provides(victim.id().value()).build());
                }
                default -> {
                  // an extension claims a built-in provider id
                  BuiltinSpec b = s.builtins().get(pick.nextInt(s.builtins().size()));
                  owner = b.provider();
                  intruder = b.provider();
                  s.apply(a, null);
                  a.install(Fixtures.ready(manifest(b.provider()).build()));
                }
              }
              LoopxException e = catchThrowableOfType(LoopxException.class, a::seal);
              assertThat(e).isNotNull();
              assertThat(e.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
              assertThat(e.getMessage())
                  .contains("`" + owner + "`")
                  .contains("`" + intruder + "`")
                  .contains(" and by ");
            });
  }

  /** One implementer of the shared capability. */
  record Implementer(
      String id,
      boolean builtin,
      boolean enabled,
      boolean ready,
      boolean compatible,
      ProtocolId protocol) {}

  private static List<Implementer> implementers(long seed) {
    Random r = new Random(seed);
    List<Implementer> list = new ArrayList<>();
    for (int i = 0, n = r.nextInt(3); i < n; i++) {
      list.add(
          new Implementer(
              "builtin" + i, true, true, true, true, r.nextBoolean() ? PROTOCOL : OTHER_PROTOCOL));
    }
    for (int i = 0, n = r.nextInt(5); i < n; i++) {
      boolean enabled = r.nextBoolean();
      list.add(
          new Implementer(
              "ext" + i,
              false,
              enabled,
              enabled && r.nextBoolean(),
              r.nextInt(4) > 0,
              r.nextInt(4) > 0 ? PROTOCOL : OTHER_PROTOCOL));
    }
    return list;
  }

  private static CapabilityRegistry shared(List<Implementer> implementers) {
    RegistryAssembly a =
        CapabilityRegistry.assembly(VERSION)
            .addBuiltin(
                contribution(
                    "core",
                    "loopx-core",
                    ctx -> ctx.addCapability(Fixtures.publicCapability("shared"))));
    for (Implementer i : implementers) {
      if (i.builtin()) {
        a.addBuiltin(
            contribution(
                i.id(), i.id(), ctx -> ctx.addImplementation(cap("shared"), i.protocol(), ECHO)));
      } else {
        a.install(
            new InstalledExtension(
                manifest(i.id())
                    .requires(i.compatible() ? ">=1,<2" : ">=2")
                    .protocol(i.protocol())
                    .implementsCapability("shared")
                    .build(),
                i.enabled(),
                i.ready()));
      }
    }
    return a.seal();
  }

  @Test
  void resolutionNeverReturnsADisabledOrNonReadyProvider() {
    qt().withExamples(EXAMPLES * 2)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              List<Implementer> implementers = implementers(seed);
              CapabilityRegistry r = shared(implementers);
              for (ProtocolId protocol : List.of(PROTOCOL, OTHER_PROTOCOL)) {
                List<ProviderId> eligible =
                    r.providers().stream()
                        .map(ProviderEntry::id)
                        .filter(
                            id ->
                                implementers.stream()
                                    .anyMatch(
                                        i ->
                                            i.id().equals(id.value())
                                                && i.protocol().equals(protocol)
                                                && i.ready()
                                                && i.compatible()))
                        .toList();
                Resolution res = r.resolve(cap("shared"), protocol);
                if (res instanceof Resolution.ResolvedCapability ok) {
                  assertThat(ok.provider().state().ready()).isTrue();
                  assertThat(ok.provider().state().enabled()).isTrue();
                  assertThat(ok.provider().apiCompatible()).isTrue();
                  assertThat(ok.implementation().protocol()).isEqualTo(protocol);
                  assertThat(eligible).containsExactly(ok.provider().id());
                } else if (eligible.isEmpty()) {
                  assertThat(res).isInstanceOf(Resolution.NoReadyProvider.class);
                } else {
                  assertThat(res).isInstanceOf(Resolution.Ambiguous.class);
                  assertThat(((Resolution.Ambiguous) res).providers()).isEqualTo(eligible);
                }
                for (ProviderEntry p : r.providers()) {
                  Resolution named = r.resolve(cap("shared"), protocol, p.id());
                  assertThat(named.isResolved()).isEqualTo(eligible.contains(p.id()));
                  ProviderAvailability opt =
                      r.availability(cap("shared"), protocol, Optional.of(p.id()));
                  assertThat(opt.isReady()).isEqualTo(eligible.contains(p.id()));
                }
                ProviderAvailability unnamed =
                    r.availability(cap("shared"), protocol, Optional.empty());
                assertThat(unnamed.isReady()).isEqualTo(eligible.size() == 1);
                unnamed
                    .resolved()
                    .ifPresent(ok -> assertThat(ok.provider().state().ready()).isTrue());
              }
            });
  }
}
