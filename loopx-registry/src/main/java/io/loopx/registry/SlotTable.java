package io.loopx.registry;

import io.loopx.api.CapabilityId;
import org.jspecify.annotations.Nullable;

/**
 * The capability slots of one generation by capability id (package-private): an open-addressing
 * hash table with linear probing that stores each slot and its id's spread hash in arrays, so that
 * adding needs no entry object and a lookup compares hashes before ids. Kept at most half full;
 * {@link #ensureCapacity} sizes it for a known count up front. Filled by one thread while a
 * generation is assembled, then only read (it is published through the generation's final fields).
 */
final class SlotTable {
  private static final int MIN_CAPACITY = 16;

  private CapabilitySlot[] slots;
  private int[] hashes;
  private int size;

  SlotTable(int expected) {
    int capacity = capacityFor(expected);
    slots = new CapabilitySlot[capacity];
    hashes = new int[capacity];
  }

  /** Returns the number of slots. */
  int size() {
    return size;
  }

  /** Returns the slot of {@code id}, or null. */
  @Nullable CapabilitySlot get(CapabilityId id) {
    int h = spread(id.hashCode());
    CapabilitySlot[] s = slots;
    int mask = s.length - 1;
    for (int i = h & mask; ; i = (i + 1) & mask) {
      CapabilitySlot slot = s[i];
      if (slot == null) {
        return null;
      }
      if (hashes[i] == h && slot.capability().id().equals(id)) {
        return slot;
      }
    }
  }

  /** Adds {@code slot} under its capability's id; returns the slot already there, or null. */
  @Nullable CapabilitySlot putIfAbsent(CapabilitySlot slot) {
    CapabilityId id = slot.capability().id();
    int h = spread(id.hashCode());
    int mask = slots.length - 1;
    int i = h & mask;
    for (CapabilitySlot other = slots[i]; other != null; other = slots[i]) {
      if (hashes[i] == h && other.capability().id().equals(id)) {
        return other;
      }
      i = (i + 1) & mask;
    }
    slots[i] = slot;
    hashes[i] = h;
    size++;
    if (2 * size > slots.length) {
      resize(2 * slots.length);
    }
    return null;
  }

  /** Makes room for {@code more} further slots without growing while they are added. */
  void ensureCapacity(int more) {
    int capacity = capacityFor(size + more);
    if (capacity > slots.length) {
      resize(capacity);
    }
  }

  private void resize(int capacity) {
    CapabilitySlot[] oldSlots = slots;
    int[] oldHashes = hashes;
    slots = new CapabilitySlot[capacity];
    hashes = new int[capacity];
    int mask = capacity - 1;
    for (int k = 0; k < oldSlots.length; k++) {
      if (oldSlots[k] != null) {
        int i = oldHashes[k] & mask;
        while (slots[i] != null) {
          i = (i + 1) & mask;
        }
        slots[i] = oldSlots[k];
        hashes[i] = oldHashes[k];
      }
    }
  }

  /** A power of two that holds {@code count} slots at most half full. */
  private static int capacityFor(int count) {
    long wanted = Math.max(MIN_CAPACITY, 2L * count);
    if (wanted > 1 << 30) {
      throw new IllegalArgumentException("too many capabilities: " + count);
    }
    return Integer.highestOneBit((int) wanted - 1) << 1;
  }

  private static int spread(int h) {
    return h ^ (h >>> 16);
  }
}
