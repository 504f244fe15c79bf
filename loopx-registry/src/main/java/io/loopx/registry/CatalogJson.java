package io.loopx.registry;

import io.loopx.api.spi.ProviderState;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** JSON read models of a registry generation (package-private; docs/contract/cli.md). */
final class CatalogJson {
  static final String CATALOG_SCHEMA = "loopx_capability_catalog_v0";
  static final String DETAIL_SCHEMA = "loopx_capability_detail_v0";

  private CatalogJson() {}

  static ObjectNode catalog(CapabilityRegistry registry, CatalogScope scope) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put("ok", true);
    root.put("schema_version", CATALOG_SCHEMA);
    ArrayNode capabilities = root.putArray("capabilities");
    for (CapabilityEntry c : registry.capabilities(scope)) {
      summary(registry, c, capabilities.addObject());
    }
    ArrayNode providers = root.putArray("providers");
    for (ProviderEntry p : registry.providers()) {
      ObjectNode o = providers.addObject();
      o.put("id", p.id().value());
      o.put("origin", p.origin().wireName());
      ProviderState s = p.state();
      o.put("declared", s.declared());
      o.put("installed", s.installed());
      o.put("enabled", s.enabled());
      o.put("ready", s.ready());
      o.put("version", p.version());
    }
    return root;
  }

  static ObjectNode detail(CapabilityRegistry registry, CapabilityEntry c) {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put("ok", true);
    root.put("schema_version", DETAIL_SCHEMA);
    ObjectNode o = root.putObject("capability");
    summary(registry, c, o);
    o.put("kind", c.descriptor().kind().value());
    o.put("provider_version", registry.providerOf(c).version());
    ArrayNode list = o.putArray("implementation_providers");
    for (ImplementationEntry i : registry.implementations(c.id())) {
      ObjectNode item = list.addObject();
      item.put("provider_id", i.providerId().value());
      item.put("protocol", i.protocol().value());
      state(item.putObject("provider_state"), registry.providerOf(i).state());
    }
    return root;
  }

  private static void summary(CapabilityRegistry registry, CapabilityEntry c, ObjectNode o) {
    o.put("id", c.id().value());
    o.put("title", c.descriptor().title());
    o.put("status", c.descriptor().status());
    o.put("origin", c.origin().wireName());
    o.put("visibility", c.visibility().wireName());
    o.put("provider_id", c.providerId().value());
    state(o.putObject("provider_state"), registry.providerOf(c).state());
    putOptional(o, "real_world_anchor", c.descriptor().realWorldAnchor());
    putOptional(o, "entry_command", c.descriptor().entryCommand());
    o.put("next_real_step", c.descriptor().nextRealStep());
    o.put("implementation_provider_count", registry.implementations(c.id()).size());
  }

  private static void state(ObjectNode o, ProviderState s) {
    o.put("declared", s.declared());
    o.put("installed", s.installed());
    o.put("enabled", s.enabled());
    o.put("ready", s.ready());
  }

  private static void putOptional(ObjectNode o, String key, Optional<String> value) {
    if (value.isPresent()) {
      o.put(key, value.get());
    } else {
      o.putNull(key);
    }
  }
}
