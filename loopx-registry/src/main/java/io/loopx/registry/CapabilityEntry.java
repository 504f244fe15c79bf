package io.loopx.registry;

import io.loopx.api.CapabilityId;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.Origin;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One registered capability: its contract descriptor plus its provenance ({@code origin} and the
 * providing {@code provider_id}).
 *
 * <p>Immutable value, created by the registry; safe to share between threads. The descriptor's
 * metadata is deep-copied on every read, so callers cannot change what the registry holds. Never
 * holds null.
 *
 * @param descriptor the capability contract (id, kind, title, status, visibility, ...)
 * @param origin builtin or extension, equal to the providing provider's origin
 * @param providerId the provider that registered (owns) the capability
 */
@API(status = API.Status.STABLE, since = "1.0")
public record CapabilityEntry(ProvidedCapability descriptor, Origin origin, ProviderId providerId) {
  /** Rejects nulls. */
  public CapabilityEntry {
    Objects.requireNonNull(descriptor, "descriptor");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(providerId, "providerId");
  }

  /** Returns the capability id. */
  public CapabilityId id() {
    return descriptor.id();
  }

  /** Returns the catalog visibility. */
  public Visibility visibility() {
    return descriptor.visibility();
  }
}
