package io.loopx.samples.semanticpreference;

import io.loopx.api.CapabilityId;
import io.loopx.api.KindToken;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import java.util.Map;
import java.util.Optional;

/**
 * The host's built-in {@code semantic-preference} contract (origin builtin, provider loopx-core),
 * as the sample CLI's catalog holds it: the capability this extension implements. Without it the
 * implementation would name an unknown capability, a catalog conflict.
 */
final class SemanticPreferenceContract implements BuiltinContribution {
  @Override
  public String id() {
    return "semantic-preference-contract";
  }

  @Override
  public void register(RegistrationContext context) {
    context.addCapability(
        new ProvidedCapability(
            CapabilityId.of(SemanticPreferenceProvider.CAPABILITY_ID),
            KindToken.of("preference_recall"),
            "Semantic preference recall",
            "available",
            Visibility.PUBLIC,
            "Recall the user's stated preferences that match a query.",
            "Install and enable an implementation such as semantic-preference-local.",
            Optional.of("a local corpus of user preferences"),
            Optional.of("loopx semantic-preference recall"),
            Map.of()));
  }
}
