package io.loopx.samples.cli;

import io.loopx.api.CapabilityId;
import io.loopx.api.KindToken;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import java.util.Map;
import java.util.Optional;

/**
 * The sample host's built-in catalog, registered as provider {@code loopx-core}: the public
 * capability {@code semantic-preference} (a contract only: the host ships no implementation, so an
 * installed extension such as {@code semantic-preference-local} is its sole candidate) and the
 * internal capability {@code catalog-health}. Stateless.
 */
final class SampleCatalog implements BuiltinContribution {
  /** The public recall contract. */
  static final CapabilityId SEMANTIC_PREFERENCE = CapabilityId.of("semantic-preference");

  /** An internal capability: registered and resolvable, omitted from the public catalog. */
  static final CapabilityId CATALOG_HEALTH = CapabilityId.of("catalog-health");

  @Override
  public String id() {
    return "sample-host-catalog";
  }

  @Override
  public void register(RegistrationContext context) {
    context.addCapability(
        new ProvidedCapability(
            SEMANTIC_PREFERENCE,
            KindToken.of("recall_contract"),
            "Semantic preference recall",
            "contract",
            Visibility.PUBLIC,
            "Recall the owner's stated preferences that match a query, ranked by relevance.",
            "Install and enable a provider that implements semantic_preference_provider_v0.",
            Optional.of("An assistant checks the owner's saved preferences before it answers."),
            Optional.of("loopx semantic-preference recall --input-json PATH"),
            Map.of()));
    context.addCapability(
        new ProvidedCapability(
            CATALOG_HEALTH,
            KindToken.of("health_check"),
            "Catalog health",
            "internal",
            Visibility.INTERNAL,
            "Lets operators see that the catalog composed without conflicts.",
            "Run `loopx capability list --include-internal` after each lifecycle change.",
            Optional.empty(),
            Optional.empty(),
            Map.of()));
  }
}
