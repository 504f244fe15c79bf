package io.loopx.registry;

import com.google.common.collect.ImmutableList;
import io.loopx.api.CapabilityId;
import io.loopx.api.ProviderId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Validates a complete, composed graph with the {@link SealChecks} and builds its {@link
 * RegistryIndex} in the same pass (package-private): the final integrity check of every assembly,
 * and the only place where duplicates across built-ins and extensions are detected.
 */
final class IndexBuilder {
  private static final ImplementationEntry[] NO_IMPLEMENTATIONS = new ImplementationEntry[0];

  private IndexBuilder() {}

  /**
   * Returns the index of the graph, or fails with {@code CATALOG_CONFLICT} at the first failed
   * check. Implementations are listed in catalog order of their providers, then registration order.
   */
  static RegistryIndex build(
      List<ProviderEntry> providers,
      List<CapabilityEntry> capabilities,
      List<ImplementationEntry> implementations) {
    ImmutableList<ProviderEntry> providerList = ImmutableList.copyOf(providers);
    Map<ProviderId, Integer> positions = new HashMap<>(capacity(providerList.size()));
    for (int k = 0; k < providerList.size(); k++) {
      ProviderEntry p = providerList.get(k);
      Integer earlier = positions.putIfAbsent(p.id(), k);
      if (earlier != null) {
        throw SealChecks.duplicateProvider(providerList.get(earlier), p);
      }
    }
    ImmutableList<CapabilityEntry> capabilityList = ImmutableList.copyOf(capabilities);
    Map<CapabilityId, CapabilitySlot> slots = new HashMap<>(capacity(capabilityList.size()));
    CapabilitySlot[] slotList = new CapabilitySlot[capabilityList.size()];
    int slotCount = 0;
    PositionCache cache = new PositionCache(positions);
    for (CapabilityEntry c : capabilityList) {
      Integer owner = cache.get(c.providerId());
      if (owner == null) {
        throw SealChecks.unknownOwner(c);
      }
      ProviderEntry ownerEntry = providerList.get(owner);
      CapabilitySlot slot = new CapabilitySlot(c);
      CapabilitySlot earlier = slots.putIfAbsent(c.id(), slot);
      if (earlier != null) {
        ProviderEntry earlierOwner =
            providerList.get(
                Objects.requireNonNull(
                    positions.get(earlier.capability().providerId()), "checked owner"));
        throw SealChecks.duplicateCapability(c, earlierOwner, ownerEntry);
      }
      SealChecks.checkSameOrigin(c, ownerEntry);
      slotList[slotCount++] = slot;
    }
    int count = implementations.size();
    ImplementationEntry[] given = implementations.toArray(NO_IMPLEMENTATIONS);
    int[] implementerPositions = new int[count];
    int[] perProvider = new int[providerList.size() + 1];
    for (int k = 0; k < count; k++) {
      ImplementationEntry i = Objects.requireNonNull(given[k], "implementation");
      Integer position = cache.get(i.providerId());
      if (position == null) {
        throw SealChecks.unknownImplementer(i);
      }
      ProviderEntry implementer = providerList.get(position);
      CapabilitySlot slot = slots.get(i.capabilityId());
      if (slot == null) {
        throw SealChecks.unknownCapability(i, implementer);
      }
      if (slot.implementedBy(i.providerId())) {
        throw SealChecks.duplicateImplementation(i, implementer);
      }
      SealChecks.checkHandlerMatchesOrigin(i, implementer);
      slot.add(i, position);
      implementerPositions[k] = position;
      perProvider[position + 1]++;
    }
    for (CapabilitySlot slot : slotList) {
      slot.freeze();
    }
    // A stable counting sort by provider position: catalog order, then registration order.
    for (int p = 0; p < providerList.size(); p++) {
      perProvider[p + 1] += perProvider[p];
    }
    ImplementationEntry[] ordered = new ImplementationEntry[count];
    for (int k = 0; k < count; k++) {
      ordered[perProvider[implementerPositions[k]]++] = given[k];
    }
    return new RegistryIndex(
        providerList, positions, capabilityList, slots, ImmutableList.copyOf(ordered));
  }

  /** Returns a {@link HashMap} capacity that holds {@code size} entries without resizing. */
  private static int capacity(int size) {
    return (int) Math.min((long) size * 4 / 3 + 1, 1 << 30);
  }

  /**
   * Provider positions, remembering the last id looked up: entries arrive grouped by provider, and
   * they usually share the provider's id instance, so most lookups need no hashing.
   */
  private static final class PositionCache {
    private final Map<ProviderId, Integer> positions;
    private @Nullable ProviderId lastId;
    private @Nullable Integer lastPosition;

    PositionCache(Map<ProviderId, Integer> positions) {
      this.positions = positions;
    }

    @Nullable Integer get(ProviderId id) {
      if (id != lastId) {
        lastPosition = positions.get(id);
        lastId = id;
      }
      return lastPosition;
    }
  }
}
