package io.loopx.registry;

import com.google.common.collect.ImmutableList;
import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The lookup structure of one sealed generation (package-private): the catalog lists, the position
 * of each provider, whether the provider at each position may dispatch, and one {@link
 * CapabilitySlot} per capability, so that every lookup is one hash lookup. Built and validated by
 * {@link IndexBuilder}; never modified afterwards.
 */
final class RegistryIndex {
  private final ImmutableList<ProviderEntry> providers;
  // Never modified after construction; the position of each provider in providers.
  private final Map<ProviderId, Integer> providerPositions;
  // Whether the provider at each position may dispatch (ready and API-compatible).
  private final boolean[] providerDispatchable;
  private final ImmutableList<CapabilityEntry> capabilities;
  // Never modified after construction; one slot per capability, found with one lookup.
  private final SlotTable slots;
  private final ImmutableList<ImplementationEntry> implementations;

  RegistryIndex(
      ImmutableList<ProviderEntry> providers,
      Map<ProviderId, Integer> providerPositions,
      ImmutableList<CapabilityEntry> capabilities,
      SlotTable slots,
      ImmutableList<ImplementationEntry> implementations) {
    this.providers = providers;
    this.providerPositions = providerPositions;
    this.providerDispatchable = new boolean[providers.size()];
    for (int k = 0; k < providerDispatchable.length; k++) {
      ProviderEntry p = providers.get(k);
      providerDispatchable[k] = p.state().ready() && p.apiCompatible();
    }
    this.capabilities = capabilities;
    this.slots = slots;
    this.implementations = implementations;
  }

  ImmutableList<ProviderEntry> providers() {
    return providers;
  }

  ImmutableList<CapabilityEntry> capabilities() {
    return capabilities;
  }

  ImmutableList<ImplementationEntry> implementations() {
    return implementations;
  }

  /** Returns the slot of a capability, or null if it is not registered. */
  @Nullable CapabilitySlot slot(CapabilityId capabilityId) {
    return slots.get(capabilityId);
  }

  /** Returns the provider at a position. */
  ProviderEntry providerAt(int position) {
    return providers.get(position);
  }

  /** Returns whether the provider at a position is ready and API-compatible. */
  boolean dispatchable(int position) {
    return providerDispatchable[position];
  }

  /** Returns the provider with this id, or null if none is registered. */
  @Nullable ProviderEntry providerOrNull(ProviderId id) {
    Integer position = providerPositions.get(id);
    return position == null ? null : providers.get(position);
  }

  /** Returns the registered provider with this id (an entry's provider, known to exist). */
  ProviderEntry provider(ProviderId id) {
    return Objects.requireNonNull(providerOrNull(id), "registered provider");
  }

  /** Returns a provider's implementation of a capability over exactly a protocol, if any. */
  Optional<ImplementationEntry> implementation(
      CapabilityId capabilityId, ProtocolId protocol, ProviderId providerId) {
    CapabilitySlot slot = slots.get(capabilityId);
    if (slot == null) {
      return Optional.empty();
    }
    return slot.implementations().stream()
        .filter(i -> i.providerId().equals(providerId) && i.protocol().equals(protocol))
        .findFirst();
  }
}
