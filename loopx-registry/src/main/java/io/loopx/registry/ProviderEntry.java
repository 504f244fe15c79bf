package io.loopx.registry;

import io.loopx.api.InvalidValueException;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.spi.Origin;
import io.loopx.api.spi.ProviderState;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One provider of the catalog: a built-in provider registered by a host contribution, or an
 * extension (declaration-only or installed). A standalone extension is a provider with no
 * capabilities.
 *
 * <p>Consistency, checked on construction: a built-in provider has {@link ProviderState#BUILTIN}, a
 * contribution id and no manifest; an extension provider has a manifest whose id is the provider id
 * and no contribution id.
 *
 * <p>Immutable value, created by the registry; safe to share between threads. Never holds null.
 *
 * @param id the provider id ({@code loopx-core}, a host-chosen built-in id, or the extension id)
 * @param origin builtin or extension
 * @param state the lifecycle flags
 * @param version the library version for a built-in, the manifest version for an extension
 * @param manifest the extension's manifest snapshot; empty for a built-in
 * @param contributionId the id of the registering {@code BuiltinContribution}; empty for an
 *     extension
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ProviderEntry(
    ProviderId id,
    Origin origin,
    ProviderState state,
    String version,
    Optional<ExtensionManifest> manifest,
    Optional<String> contributionId) {

  /** Rejects nulls and inconsistent combinations with {@link InvalidValueException}. */
  public ProviderEntry {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(contributionId, "contributionId");
    if (version.isBlank()) {
      throw new InvalidValueException("provider version", version, "must not be blank");
    }
    switch (origin) {
      case BUILTIN -> {
        if (manifest.isPresent()
            || contributionId.isEmpty()
            || !state.equals(ProviderState.BUILTIN)) {
          throw new InvalidValueException(
              "built-in provider",
              id.value(),
              "needs a contribution id, no manifest and an all-true state");
        }
      }
      case EXTENSION -> {
        if (manifest.isEmpty()
            || contributionId.isPresent()
            || !manifest.get().id().value().equals(id.value())) {
          throw new InvalidValueException(
              "extension provider",
              id.value(),
              "needs a manifest with the same id and no contribution id");
        }
      }
    }
  }

  /**
   * Returns whether the provider's snapshot admits this runtime's extension API version: always
   * true for a built-in, else whether the manifest's {@code requires_loopx_api} admits {@link
   * io.loopx.api.ApiRange#CURRENT_API_VERSION}.
   */
  public boolean apiCompatible() {
    return manifest.map(m -> m.requiresLoopxApi().admitsCurrent()).orElse(true);
  }

  /** Returns a short description naming this provider, used in conflict messages. */
  String describe() {
    if (origin == Origin.BUILTIN) {
      return "built-in provider `" + id + "` (contribution `" + contributionId.orElse("?") + "`)";
    }
    return (state.installed() ? "installed extension `" : "declared extension `") + id + "`";
  }
}
