package io.loopx.registry;

import com.google.common.collect.ImmutableList;
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
  private IndexBuilder() {}

  /**
   * Returns the index of the graph, or fails with {@code CATALOG_CONFLICT} at the first failed
   * check. Implementations are listed in catalog order of their providers, then registration order.
   */
  static RegistryIndex build(
      List<ProviderEntry> providers,
      List<CapabilityEntry> capabilities,
      List<ImplementationEntry> implementations) {
    return build(
        BuiltinStaging.Staged.empty(capabilities.size()), providers, capabilities, implementations);
  }

  /**
   * As {@link #build(List, List, List)} for the graph of the staged built-ins followed by the
   * extensions' providers, capabilities and implementations: the staged slots are reused, and of
   * the staged entries only the waiting implementations are checked (the others passed every check
   * while they were staged), in registration order before the extensions' implementations.
   */
  static RegistryIndex build(
      BuiltinStaging.Staged staged,
      List<ProviderEntry> providers,
      List<CapabilityEntry> capabilities,
      List<ImplementationEntry> implementations) {
    int stagedProviders = staged.providers().size();
    ProviderEntry[] providerArray = new ProviderEntry[stagedProviders + providers.size()];
    staged.providers().toArray(providerArray);
    for (int k = 0; k < providers.size(); k++) {
      providerArray[stagedProviders + k] = providers.get(k);
    }
    ImmutableList<ProviderEntry> providerList = ImmutableList.copyOf(providerArray);
    Map<ProviderId, Integer> positions = new HashMap<>(capacity(providerList.size()));
    for (int k = 0; k < providerList.size(); k++) {
      ProviderEntry p = providerList.get(k);
      Integer earlier = positions.putIfAbsent(p.id(), k);
      if (earlier != null) {
        throw SealChecks.duplicateProvider(providerList.get(earlier), p);
      }
    }
    int stagedCapabilities = staged.capabilities().size();
    CapabilityEntry[] capabilityArray =
        new CapabilityEntry[stagedCapabilities + capabilities.size()];
    SlotTable slots = staged.slots();
    slots.ensureCapacity(capabilities.size());
    CapabilitySlot[] slotList = new CapabilitySlot[capabilityArray.length];
    int slotCount = 0;
    for (CapabilitySlot slot : staged.capabilities()) {
      capabilityArray[slotCount] = slot.capability();
      slotList[slotCount++] = slot;
    }
    PositionCache cache = new PositionCache(positions);
    for (CapabilityEntry c : capabilities) {
      Integer owner = cache.get(c.providerId());
      if (owner == null) {
        throw SealChecks.unknownOwner(c);
      }
      ProviderEntry ownerEntry = providerList.get(owner);
      CapabilitySlot slot = new CapabilitySlot(c);
      CapabilitySlot earlier = slots.putIfAbsent(slot);
      if (earlier != null) {
        ProviderEntry earlierOwner =
            providerList.get(
                Objects.requireNonNull(
                    positions.get(earlier.capability().providerId()), "checked owner"));
        throw SealChecks.duplicateCapability(c, earlierOwner, ownerEntry);
      }
      SealChecks.checkSameOrigin(c, ownerEntry);
      capabilityArray[slotCount] = c;
      slotList[slotCount++] = slot;
    }
    for (BuiltinStaging.Waiting w : staged.waiting()) {
      check(w.implementation, w.position, providerList, slots);
    }
    int stagedCount = staged.implementations().size();
    int count = stagedCount + implementations.size();
    ImplementationEntry[] given = new ImplementationEntry[count];
    staged.implementations().toArray(given);
    int[] implementerPositions = new int[count];
    int[] perProvider = new int[providerList.size() + 1];
    boolean ordered = true;
    int previous = 0;
    for (int k = 0; k < count; k++) {
      ImplementationEntry i;
      int position;
      if (k < stagedCount) {
        // Staged by a built-in: its provider is registered and it passed the checks.
        i = given[k];
        position = Objects.requireNonNull(cache.get(i.providerId()), "staged provider");
      } else {
        i = Objects.requireNonNull(implementations.get(k - stagedCount), "implementation");
        Integer p = cache.get(i.providerId());
        if (p == null) {
          throw SealChecks.unknownImplementer(i);
        }
        position = p;
        check(i, position, providerList, slots);
        given[k] = i;
      }
      implementerPositions[k] = position;
      perProvider[position + 1]++;
      ordered &= position >= previous;
      previous = position;
    }
    for (CapabilitySlot slot : slotList) {
      slot.freeze();
    }
    ImplementationEntry[] catalogOrder = given;
    if (!ordered) {
      // A stable counting sort by provider position: catalog order, then registration order.
      for (int p = 0; p < providerList.size(); p++) {
        perProvider[p + 1] += perProvider[p];
      }
      catalogOrder = new ImplementationEntry[count];
      for (int k = 0; k < count; k++) {
        catalogOrder[perProvider[implementerPositions[k]]++] = given[k];
      }
    }
    return new RegistryIndex(
        providerList,
        positions,
        ImmutableList.copyOf(capabilityArray),
        slots,
        ImmutableList.copyOf(catalogOrder));
  }

  /**
   * Checks an implementation by the registered provider at {@code position} and adds it to its
   * capability's slot.
   */
  private static void check(
      ImplementationEntry i, int position, List<ProviderEntry> providerList, SlotTable slots) {
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
