package io.loopx.registry;

import com.google.common.collect.ImmutableList;
import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * One sealed, immutable generation of the capability registry: the providers, capabilities and
 * implementations of built-ins and extensions, composed and validated in one pass by a {@link
 * RegistryAssembly}. A change (install, enable, doctor, ...) builds a new generation; see {@link
 * RegistryHolder}.
 *
 * <p><b>Order</b> (deterministic, docs/contract/registry.md "Composition order"): providers and
 * capabilities list built-ins first, in registration order (contributions in the order added,
 * capabilities in the order each contribution registered them), then declaration-only manifests in
 * the order given (capabilities in manifest order), then installed extensions sorted by id.
 * Implementations follow their provider's position, then registration order. As a set, the catalog
 * does not depend on registration order.
 *
 * <p><b>Thread safety:</b> immutable; every method may be called from any thread. Reads return
 * unmodifiable lists of immutable values, and JSON read models are fresh objects on every call, so
 * no caller can change what another sees. <b>Nulls:</b> no argument may be null, nothing returned
 * is null. Created only by {@link RegistryAssembly#seal()}; not for implementation or subclassing.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class CapabilityRegistry {
  private final String libraryVersion;
  private final RegistryIndex index;

  private CapabilityRegistry(String libraryVersion, RegistryIndex index) {
    this.libraryVersion = libraryVersion;
    this.index = index;
  }

  /**
   * Starts an assembly for a new generation. Built-in providers report {@code libraryVersion} as
   * their version.
   *
   * @param libraryVersion the LoopX library version, e.g. {@code 0.1.0}; not blank
   */
  public static RegistryAssembly assembly(String libraryVersion) {
    return new RegistryAssembly(libraryVersion);
  }

  /**
   * Validates a complete, composed graph and seals it (package-private: the final integrity check
   * of every assembly, and the only place where duplicates across built-ins and extensions are
   * detected). Fails with {@code CATALOG_CONFLICT} naming both claimants on a duplicate provider,
   * capability or (capability, provider) implementation, a capability whose provider is unknown or
   * has another origin, an implementation of an unknown capability or by an unknown provider, or an
   * in-process handler that does not match the provider's origin. Checks run in this order:
   * providers, then capabilities, then implementations, each in list order; see {@link SealChecks}.
   */
  static CapabilityRegistry of(
      String libraryVersion,
      List<ProviderEntry> providers,
      List<CapabilityEntry> capabilities,
      List<ImplementationEntry> implementations) {
    SealChecks.checkVersion(libraryVersion);
    return new CapabilityRegistry(
        libraryVersion, IndexBuilder.build(providers, capabilities, implementations));
  }

  /**
   * As {@link #of(String, List, List, List)} for the staged built-ins of an assembly followed by
   * the extensions' providers, capabilities and implementations.
   */
  static CapabilityRegistry of(
      String libraryVersion,
      BuiltinStaging.Staged staged,
      List<ProviderEntry> providers,
      List<CapabilityEntry> capabilities,
      List<ImplementationEntry> implementations) {
    SealChecks.checkVersion(libraryVersion);
    return new CapabilityRegistry(
        libraryVersion, IndexBuilder.build(staged, providers, capabilities, implementations));
  }

  /** Returns the library version that built-in providers report. */
  public String libraryVersion() {
    return libraryVersion;
  }

  /** Returns every provider in catalog order (unmodifiable). */
  public List<ProviderEntry> providers() {
    return index.providers();
  }

  /** Returns the provider with this id, if registered (built-in, declared or installed). */
  public Optional<ProviderEntry> provider(ProviderId id) {
    return Optional.ofNullable(index.providerOrNull(Objects.requireNonNull(id, "id")));
  }

  /** Returns the capabilities listed in {@code scope}, in catalog order (unmodifiable). */
  public List<CapabilityEntry> capabilities(CatalogScope scope) {
    Objects.requireNonNull(scope, "scope");
    if (scope == CatalogScope.INCLUDE_INTERNAL) {
      return index.capabilities();
    }
    return index.capabilities().stream()
        .filter(c -> scope.includes(c.visibility()))
        .collect(ImmutableList.toImmutableList());
  }

  /** Returns the capability with this id, public or internal, if registered. */
  public Optional<CapabilityEntry> capability(CapabilityId id) {
    CapabilitySlot slot = index.slot(Objects.requireNonNull(id, "id"));
    return slot == null ? Optional.empty() : Optional.of(slot.capability());
  }

  /** Returns every implementation, in catalog order of the implementing providers. */
  public List<ImplementationEntry> implementations() {
    return index.implementations();
  }

  /**
   * Returns the implementations of a capability, ready or not, in catalog order of their providers;
   * empty for an unknown capability.
   */
  public List<ImplementationEntry> implementations(CapabilityId capabilityId) {
    CapabilitySlot slot = index.slot(Objects.requireNonNull(capabilityId, "capabilityId"));
    return slot == null ? List.of() : slot.implementations();
  }

  /**
   * Resolves the one ready provider of {@code capabilityId} over {@code protocol}.
   *
   * <p>Outcomes, in this order: {@link Resolution.UnknownCapability} if the capability is not
   * registered (internal capabilities are registered); {@link Resolution.NoReadyProvider} if no
   * ready provider has an implementation with exactly this protocol; {@link Resolution.Ambiguous}
   * (listing them in catalog order) if more than one has; else {@link
   * Resolution.ResolvedCapability}. Ready means {@code provider_state.ready} (always true for
   * built-ins) and an API-compatible snapshot.
   */
  public Resolution resolve(CapabilityId capabilityId, ProtocolId protocol) {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    CapabilitySlot slot = index.slot(capabilityId);
    if (slot == null) {
      return new Resolution.UnknownCapability(capabilityId, protocol);
    }
    int first = -1;
    List<ProviderId> ambiguous = null;
    for (int k = 0; k < slot.size(); k++) {
      if (index.dispatchable(slot.position(k))
          && slot.implementation(k).protocol().equals(protocol)) {
        if (first < 0) {
          first = k;
        } else {
          if (ambiguous == null) {
            ambiguous = new ArrayList<>();
            ambiguous.add(slot.implementation(first).providerId());
          }
          ambiguous.add(slot.implementation(k).providerId());
        }
      }
    }
    if (first < 0) {
      return new Resolution.NoReadyProvider(capabilityId, protocol);
    }
    if (ambiguous != null) {
      return new Resolution.Ambiguous(capabilityId, protocol, ambiguous);
    }
    return new Resolution.ResolvedCapability(
        capabilityId, protocol, index.providerAt(slot.position(first)), slot.implementation(first));
  }

  /**
   * Resolves a caller-named provider of {@code capabilityId} over {@code protocol}.
   *
   * <p>Outcomes, first match wins: {@link Resolution.UnknownCapability}; {@link
   * Resolution.ProviderNotInstalled} if no provider has that id or it is declaration-only; {@link
   * Resolution.ProviderIncompatible} if its snapshot's {@code requires_loopx_api} rejects this
   * runtime; {@link Resolution.ProviderDoesNotImplement} if it has no implementation of the
   * capability with exactly this protocol; {@link Resolution.ProviderDisabled}; {@link
   * Resolution.ProviderNotReady} (enabled, doctor proof not fresh); else {@link
   * Resolution.ResolvedCapability}.
   */
  public Resolution resolve(CapabilityId capabilityId, ProtocolId protocol, ProviderId providerId) {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(providerId, "providerId");
    if (index.slot(capabilityId) == null) {
      return new Resolution.UnknownCapability(capabilityId, protocol);
    }
    ProviderEntry p = index.providerOrNull(providerId);
    if (p == null || !p.state().installed()) {
      return new Resolution.ProviderNotInstalled(capabilityId, protocol, providerId);
    }
    if (!p.apiCompatible()) {
      return new Resolution.ProviderIncompatible(
          capabilityId, protocol, providerId, p.manifest().orElseThrow().requiresLoopxApi());
    }
    Optional<ImplementationEntry> implementation =
        index.implementation(capabilityId, protocol, p.id());
    if (implementation.isEmpty()) {
      return new Resolution.ProviderDoesNotImplement(capabilityId, protocol, providerId);
    }
    if (!p.state().enabled()) {
      return new Resolution.ProviderDisabled(capabilityId, protocol, providerId);
    }
    if (!p.state().ready()) {
      return new Resolution.ProviderNotReady(capabilityId, protocol, providerId);
    }
    return new Resolution.ResolvedCapability(capabilityId, protocol, p, implementation.get());
  }

  /**
   * Reports whether a provider is available (optional resolution): never throws for a missing,
   * disabled, stale or ambiguous provider, and reports a status word with a {@code next_action}
   * instead. (A caller that cannot read the activation state uses {@link
   * ProviderAvailability#stateUnavailable} for {@code extension_state_unavailable}.)
   *
   * <p>Candidates are installed providers (built-ins included) with an implementation of {@code
   * capabilityId} over exactly {@code protocol}; an unknown capability has none. One provider is
   * evaluated as follows, first match wins: {@code extension_incompatible} if its snapshot's {@code
   * requires_loopx_api} rejects this runtime or it has no such implementation; {@code
   * extension_disabled} if not enabled; {@code extension_doctor_not_ready} if enabled but not
   * ready; else {@code ready}.
   *
   * <p>With a named provider: {@code extension_not_installed} if no provider has that id or it is
   * declaration-only; else the evaluation of that provider. Without one: {@code
   * extension_provider_ambiguous} if more than one candidate is ready; the ready one if exactly one
   * is; the evaluation of the only candidate if there is exactly one; {@code
   * extension_provider_not_installed} if there is none; else ({@code >= 2} candidates, none ready)
   * {@code extension_provider_not_ready}.
   *
   * @param capabilityId the capability
   * @param protocol the protocol
   * @param providerId the provider the caller named, if any
   */
  public ProviderAvailability availability(
      CapabilityId capabilityId, ProtocolId protocol, Optional<ProviderId> providerId) {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(providerId, "providerId");
    return AvailabilityRules.availability(index, capabilityId, protocol, providerId);
  }

  /**
   * Returns a new {@code loopx_capability_catalog_v0} object (docs/contract/cli.md {@code
   * capability list}): {@code ok, schema_version, capabilities:[{id, title, status, origin,
   * visibility, provider_id, provider_state:{declared, installed, enabled, ready},
   * real_world_anchor, entry_command, next_real_step, implementation_provider_count}],
   * providers:[{id, origin, declared, installed, enabled, ready, version}]}} in catalog order.
   * Every key is always present ({@code null} where it does not apply); every provider is listed,
   * the capabilities of {@code scope} only.
   */
  public ObjectNode catalogJson(CatalogScope scope) {
    return CatalogJson.catalog(this, scope);
  }

  /**
   * Returns a new {@code loopx_capability_detail_v0} object (docs/contract/cli.md {@code capability
   * show}): {@code ok, schema_version, capability:{...the catalog summary fields, kind,
   * provider_version, implementation_providers:[{provider_id, protocol, provider_state}]}}.
   *
   * @throws LoopxException {@code RESOLUTION_FAILED} ({@code unknown capability `<id>`}) when the
   *     capability is not registered, or is internal and {@code scope} is {@link
   *     CatalogScope#PUBLIC}
   */
  public ObjectNode detailJson(CapabilityId capabilityId, CatalogScope scope) {
    Objects.requireNonNull(scope, "scope");
    CapabilitySlot slot = index.slot(Objects.requireNonNull(capabilityId, "capabilityId"));
    CapabilityEntry c = slot == null ? null : slot.capability();
    if (c == null || !scope.includes(c.visibility())) {
      throw new LoopxException(
          ErrorKind.RESOLUTION_FAILED, "unknown capability `" + capabilityId + "`");
    }
    return CatalogJson.detail(this, c);
  }

  ProviderEntry providerOf(CapabilityEntry c) {
    return index.provider(c.providerId());
  }

  ProviderEntry providerOf(ImplementationEntry i) {
    return index.provider(i.providerId());
  }

  /** Returns a short summary for debugging: counts of providers, capabilities, implementations. */
  @Override
  public String toString() {
    return "CapabilityRegistry[providers="
        + index.providers().size()
        + ", capabilities="
        + index.capabilities().size()
        + ", implementations="
        + index.implementations().size()
        + "]";
  }
}
