package io.loopx.registry;

import static io.loopx.registry.Fixtures.ECHO;
import static io.loopx.registry.Fixtures.PROTOCOL;
import static io.loopx.registry.Fixtures.VERSION;
import static io.loopx.registry.Fixtures.cap;
import static io.loopx.registry.Fixtures.contribution;
import static io.loopx.registry.Fixtures.installed;
import static io.loopx.registry.Fixtures.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.json.CanonicalJson;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON read models: exact keys of docs/contract/cli.md, nulls where a field does not apply,
 * order.
 */
class CatalogJsonTest {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private static CapabilityRegistry sample() {
    return Fixtures.withCore()
        .addBuiltin(
            contribution(
                "local",
                "local-memory",
                ctx -> ctx.addImplementation(cap("projection-sink"), PROTOCOL, ECHO)))
        .declare(manifest("declared-ext").provides("declared-cap").build())
        .install(
            installed(
                manifest("pref-ext")
                    .version("2.1.0")
                    .implementsCapability("semantic-preference")
                    .build(),
                true,
                false))
        .install(Fixtures.ready(manifest("text-stats").build()))
        .seal();
  }

  @Test
  void publicCatalogMatchesTheSpecShapeExactly() {
    JsonNode expected =
        MAPPER.readTree(
            """
            {"ok":true,"schema_version":"loopx_capability_catalog_v0",
             "capabilities":[
              {"id":"semantic-preference","title":"Title of semantic-preference","status":"available",
               "origin":"builtin","visibility":"public","provider_id":"loopx-core",
               "provider_state":{"declared":true,"installed":true,"enabled":true,"ready":true},
               "real_world_anchor":"anchor of semantic-preference",
               "entry_command":"loopx semantic-preference",
               "next_real_step":"next step of semantic-preference",
               "implementation_provider_count":1},
              {"id":"declared-cap","title":"Title of declared-cap","status":"available",
               "origin":"extension","visibility":"public","provider_id":"declared-ext",
               "provider_state":{"declared":true,"installed":false,"enabled":false,"ready":false},
               "real_world_anchor":"anchor of declared-cap","entry_command":"loopx declared-cap",
               "next_real_step":"next step of declared-cap","implementation_provider_count":0}],
             "providers":[
              {"id":"loopx-core","origin":"builtin","declared":true,"installed":true,"enabled":true,"ready":true,"version":"0.1.0-test"},
              {"id":"local-memory","origin":"builtin","declared":true,"installed":true,"enabled":true,"ready":true,"version":"0.1.0-test"},
              {"id":"declared-ext","origin":"extension","declared":true,"installed":false,"enabled":false,"ready":false,"version":"1.0.0"},
              {"id":"pref-ext","origin":"extension","declared":true,"installed":true,"enabled":true,"ready":false,"version":"2.1.0"},
              {"id":"text-stats","origin":"extension","declared":true,"installed":true,"enabled":true,"ready":true,"version":"1.0.0"}]}
            """);
    JsonNode actual = sample().catalogJson(CatalogScope.PUBLIC);

    assertThat(actual).isEqualTo(expected);
    // key order as listed in docs/contract/cli.md
    assertThat(actual.propertyNames())
        .containsExactly("ok", "schema_version", "capabilities", "providers");
    assertThat(actual.get("capabilities").get(0).propertyNames())
        .containsExactly(
            "id",
            "title",
            "status",
            "origin",
            "visibility",
            "provider_id",
            "provider_state",
            "real_world_anchor",
            "entry_command",
            "next_real_step",
            "implementation_provider_count");
  }

  @Test
  void internalCapabilitiesAppearOnlyOnRequestWithNullAnchors() {
    JsonNode withInternal = sample().catalogJson(CatalogScope.INCLUDE_INTERNAL);
    JsonNode sink = withInternal.get("capabilities").get(1);
    assertThat(sink.get("id").asString()).isEqualTo("projection-sink");
    assertThat(sink.get("visibility").asString()).isEqualTo("internal");
    assertThat(sink.has("real_world_anchor")).isTrue();
    assertThat(sink.get("real_world_anchor").isNull()).isTrue();
    assertThat(sink.get("entry_command").isNull()).isTrue();
    assertThat(sink.get("implementation_provider_count").asInt()).isEqualTo(1);
    assertThat(withInternal.get("capabilities").size()).isEqualTo(3);
  }

  @Test
  void detailAddsKindProviderVersionAndImplementationProviders() {
    JsonNode detail = sample().detailJson(cap("semantic-preference"), CatalogScope.PUBLIC);
    JsonNode expected =
        MAPPER.readTree(
            """
            {"ok":true,"schema_version":"loopx_capability_detail_v0",
             "capability":{"id":"semantic-preference","title":"Title of semantic-preference",
               "status":"available","origin":"builtin","visibility":"public","provider_id":"loopx-core",
               "provider_state":{"declared":true,"installed":true,"enabled":true,"ready":true},
               "real_world_anchor":"anchor of semantic-preference",
               "entry_command":"loopx semantic-preference",
               "next_real_step":"next step of semantic-preference",
               "implementation_provider_count":1,
               "kind":"projection_sink","provider_version":"0.1.0-test",
               "implementation_providers":[
                 {"provider_id":"pref-ext","protocol":"semantic_preference_provider_v0",
                  "provider_state":{"declared":true,"installed":true,"enabled":true,"ready":false}}]}}
            """);
    assertThat(detail).isEqualTo(expected);
  }

  @Test
  void internalDetailNeedsIncludeInternalOtherwiseUnknownCapability() {
    CapabilityRegistry r = sample();
    assertThatThrownBy(() -> r.detailJson(cap("projection-sink"), CatalogScope.PUBLIC))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.RESOLUTION_FAILED))
        .hasMessage("unknown capability `projection-sink`");
    assertThat(
            r.detailJson(cap("projection-sink"), CatalogScope.INCLUDE_INTERNAL)
                .get("capability")
                .get("implementation_providers")
                .get(0)
                .get("provider_id")
                .asString())
        .isEqualTo("local-memory");
    assertThatThrownBy(() -> r.detailJson(cap("nothing-here"), CatalogScope.INCLUDE_INTERNAL))
        .hasMessage("unknown capability `nothing-here`");
  }

  @Test
  void emptyRegistryStillHasEveryTopLevelKey() {
    JsonNode json = CapabilityRegistry.assembly(VERSION).seal().catalogJson(CatalogScope.PUBLIC);
    assertThat(CanonicalJson.toText(json))
        .isEqualTo(
            "{\"capabilities\":[],\"ok\":true,\"providers\":[],"
                + "\"schema_version\":\"loopx_capability_catalog_v0\"}");
  }
}
