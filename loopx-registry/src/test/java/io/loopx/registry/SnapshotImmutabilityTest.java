package io.loopx.registry;

import static io.loopx.registry.Fixtures.ECHO;
import static io.loopx.registry.Fixtures.PROTOCOL;
import static io.loopx.registry.Fixtures.VERSION;
import static io.loopx.registry.Fixtures.cap;
import static io.loopx.registry.Fixtures.contribution;
import static io.loopx.registry.Fixtures.manifest;
import static io.loopx.registry.Fixtures.pid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.CapabilityId;
import io.loopx.api.ProviderId;
import io.loopx.api.json.CanonicalJson;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Reads return deep-immutable snapshots: mutation attempts fail or are invisible. */
class SnapshotImmutabilityTest {

  private static ObjectNode tags() {
    ObjectNode meta = JsonNodeFactory.instance.objectNode();
    meta.putArray("tags").add("original");
    return meta;
  }

  @Test
  void metadataMutationBeforeAndAfterRegistrationIsInvisible() {
    ObjectNode source = tags();
    Map<String, JsonNode> metadata = new LinkedHashMap<>();
    metadata.put("extra", source);
    ProvidedCapability descriptor = Fixtures.capability("alpha", Visibility.PUBLIC, metadata);
    CapabilityRegistry r =
        CapabilityRegistry.assembly(VERSION)
            .addBuiltin(contribution("core", "loopx-core", ctx -> ctx.addCapability(descriptor)))
            .seal();

    // the caller's own node, changed after registration
    ((ArrayNode) source.get("tags")).add("mutated-source");
    metadata.put("sneaky", JsonNodeFactory.instance.stringNode("x"));
    // a node obtained from the registry, changed in place
    JsonNode read = r.capability(cap("alpha")).orElseThrow().descriptor().metadata().get("extra");
    ((ArrayNode) read.get("tags")).add("mutated-read");

    Map<String, JsonNode> again = r.capability(cap("alpha")).orElseThrow().descriptor().metadata();
    assertThat(again.keySet()).containsExactly("extra");
    assertThat(CanonicalJson.toText(again.get("extra"))).isEqualTo("{\"tags\":[\"original\"]}");
    assertThatThrownBy(() -> again.put("new", JsonNodeFactory.instance.nullNode()))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void manifestMetadataInProviderEntriesIsDeepCopied() {
    CapabilityRegistry r =
        CapabilityRegistry.assembly(VERSION)
            .install(
                Fixtures.ready(
                    manifest("ext")
                        .provides(
                            Fixtures.capability(
                                "alpha", Visibility.PUBLIC, Map.of("extra", tags())))
                        .build()))
            .seal();
    JsonNode read =
        r.provider(pid("ext"))
            .orElseThrow()
            .manifest()
            .orElseThrow()
            .provides()
            .get(0)
            .metadata()
            .get("extra");
    ((ArrayNode) read.get("tags")).removeAll();

    assertThat(
            CanonicalJson.toText(
                r.capability(cap("alpha")).orElseThrow().descriptor().metadata().get("extra")))
        .isEqualTo("{\"tags\":[\"original\"]}");
  }

  @Test
  void returnedListsAreUnmodifiable() {
    CapabilityRegistry r =
        Fixtures.withCore()
            .addBuiltin(
                contribution(
                    "local",
                    "local-memory",
                    ctx -> ctx.addImplementation(cap("semantic-preference"), PROTOCOL, ECHO)))
            .install(Fixtures.ready(manifest("ext").build()))
            .seal();
    CapabilityEntry any = r.capabilities(CatalogScope.INCLUDE_INTERNAL).get(0);
    ProviderEntry provider = r.providers().get(0);
    ImplementationEntry impl = r.implementations().get(0);

    List<Runnable> mutations =
        List.of(
            () -> r.providers().clear(),
            () -> r.providers().add(provider),
            () -> r.capabilities(CatalogScope.PUBLIC).clear(),
            () -> r.capabilities(CatalogScope.INCLUDE_INTERNAL).remove(0),
            () -> r.capabilities(CatalogScope.INCLUDE_INTERNAL).add(any),
            () -> r.implementations().clear(),
            () -> r.implementations(cap("semantic-preference")).add(impl),
            () -> r.implementations(cap("unknown")).add(impl),
            () ->
                r.provider(pid("ext"))
                    .orElseThrow()
                    .manifest()
                    .orElseThrow()
                    .implementations()
                    .clear());
    for (Runnable m : mutations) {
      assertThatThrownBy(m::run).isInstanceOf(UnsupportedOperationException.class);
    }
    assertThat(r.providers()).hasSize(3);
  }

  @Test
  void jsonReadModelsAreFreshObjects() {
    CapabilityRegistry r = Fixtures.withCore().seal();
    ObjectNode first = r.catalogJson(CatalogScope.PUBLIC);
    String before = CanonicalJson.toText(first);
    first.removeAll();
    ObjectNode detail = r.detailJson(cap("semantic-preference"), CatalogScope.PUBLIC);
    ((ObjectNode) detail.get("capability")).put("title", "changed");

    assertThat(CanonicalJson.toText(r.catalogJson(CatalogScope.PUBLIC))).isEqualTo(before);
    assertThat(
            r.detailJson(cap("semantic-preference"), CatalogScope.PUBLIC)
                .get("capability")
                .get("title")
                .asString())
        .isEqualTo("Title of semantic-preference");
  }

  @Test
  void inputListsChangedAfterwardsDoNotLeakIn() {
    List<io.loopx.api.spi.BuiltinContribution> list = new ArrayList<>();
    list.add(Fixtures.capabilities("core", "loopx-core", "alpha"));
    RegistryAssembly a = CapabilityRegistry.assembly(VERSION).addBuiltins(list);
    list.add(Fixtures.capabilities("late", "late-provider", "beta"));
    CapabilityRegistry r = a.seal();
    assertThat(r.providers()).extracting(ProviderEntry::id).containsExactly(ProviderId.LOOPX_CORE);

    Resolution.Ambiguous amb =
        new Resolution.Ambiguous(
            CapabilityId.of("x"), PROTOCOL, new ArrayList<>(List.of(pid("a"), pid("b"))));
    assertThatThrownBy(() -> amb.providers().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(
            new ProviderAvailability(
                    AvailabilityStatus.EXTENSION_PROVIDER_NOT_INSTALLED,
                    CapabilityId.of("x"),
                    PROTOCOL,
                    Optional.empty(),
                    new ArrayList<>(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty())
                .candidates())
        .isUnmodifiable();
  }
}
