package io.loopx.registry;

import io.loopx.api.ProviderId;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A capability with its implementations in catalog order of their providers, and the position of
 * each implementer in the generation's provider list, so that resolution needs one hash lookup
 * (package-private). Filled while the generation is assembled and validated, then frozen by {@link
 * #freeze}; never changed afterwards. The first implementation is held in fields (most capabilities
 * have exactly one), the others in arrays.
 */
final class CapabilitySlot {
  private static final ImplementationEntry[] NO_IMPLEMENTATIONS = new ImplementationEntry[0];
  private static final int[] NO_POSITIONS = new int[0];

  private final CapabilityEntry capability;
  private @Nullable ImplementationEntry first;
  private int firstPosition;
  // Implementations 1..size-1 and their positions.
  private ImplementationEntry[] more = NO_IMPLEMENTATIONS;
  private int[] morePositions = NO_POSITIONS;
  private int size;
  private @Nullable List<ImplementationEntry> view;

  CapabilitySlot(CapabilityEntry capability) {
    this.capability = capability;
  }

  CapabilityEntry capability() {
    return capability;
  }

  /** Returns the number of implementations. */
  int size() {
    return size;
  }

  /** Returns the implementation at index {@code k}, in catalog order of the providers. */
  ImplementationEntry implementation(int k) {
    return k == 0 ? Objects.requireNonNull(first, "implementation") : more[k - 1];
  }

  /** Returns the provider position of the implementation at index {@code k}. */
  int position(int k) {
    return k == 0 ? firstPosition : morePositions[k - 1];
  }

  /** Returns the implementations, in catalog order of their providers (unmodifiable). */
  List<ImplementationEntry> implementations() {
    List<ImplementationEntry> v = view;
    if (v == null) {
      // Made on first use; a racing reader makes an equal immutable list, which is harmless.
      if (size == 0) {
        v = List.of();
      } else {
        ImplementationEntry[] all = new ImplementationEntry[size];
        for (int k = 0; k < size; k++) {
          all[k] = implementation(k);
        }
        v = List.of(all);
      }
      view = v;
    }
    return v;
  }

  boolean implementedBy(ProviderId providerId) {
    return implementationBy(providerId) != null;
  }

  /** Returns the implementation by {@code providerId}, or null if it has none. */
  @Nullable ImplementationEntry implementationBy(ProviderId providerId) {
    for (int k = 0; k < size; k++) {
      ImplementationEntry i = implementation(k);
      if (i.providerId().equals(providerId)) {
        return i;
      }
    }
    return null;
  }

  void add(ImplementationEntry implementation, int position) {
    if (size == 0) {
      first = implementation;
      firstPosition = position;
    } else {
      if (size - 1 == more.length) {
        int capacity = Math.max(1, more.length * 2);
        more = Arrays.copyOf(more, capacity);
        morePositions = Arrays.copyOf(morePositions, capacity);
      }
      more[size - 1] = implementation;
      morePositions[size - 1] = position;
    }
    size++;
  }

  /** Orders by provider position, stable (registration order within one provider); trims. */
  void freeze() {
    if (size < 2) {
      return;
    }
    ImplementationEntry[] all = new ImplementationEntry[size];
    int[] positions = new int[size];
    for (int k = 0; k < size; k++) {
      all[k] = implementation(k);
      positions[k] = position(k);
    }
    for (int k = 1; k < size; k++) {
      ImplementationEntry i = all[k];
      int pos = positions[k];
      int j = k - 1;
      while (j >= 0 && positions[j] > pos) {
        all[j + 1] = all[j];
        positions[j + 1] = positions[j];
        j--;
      }
      all[j + 1] = i;
      positions[j + 1] = pos;
    }
    first = all[0];
    firstPosition = positions[0];
    more = Arrays.copyOfRange(all, 1, size);
    morePositions = Arrays.copyOfRange(positions, 1, size);
  }
}
