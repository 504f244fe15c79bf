package io.loopx.registry;

import io.loopx.api.ProviderId;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A capability with its implementations in catalog order of their providers, and the position of
 * each implementer in the generation's provider list, so that resolution needs one hash lookup
 * (package-private). Filled by {@link IndexBuilder} while the generation is validated, then frozen
 * by {@link #freeze}; never changed afterwards.
 */
final class CapabilitySlot {
  private static final ImplementationEntry[] NO_IMPLEMENTATIONS = new ImplementationEntry[0];
  private static final int[] NO_POSITIONS = new int[0];

  private final CapabilityEntry capability;
  private ImplementationEntry[] implementations = NO_IMPLEMENTATIONS;
  private int[] positions = NO_POSITIONS;
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
    return implementations[k];
  }

  /** Returns the provider position of the implementation at index {@code k}. */
  int position(int k) {
    return positions[k];
  }

  /** Returns the implementations, in catalog order of their providers (unmodifiable). */
  List<ImplementationEntry> implementations() {
    List<ImplementationEntry> v = view;
    if (v == null) {
      // Made on first use; a racing reader makes an equal immutable list, which is harmless.
      v = size == 0 ? List.of() : List.of(implementations);
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
      if (implementations[k].providerId().equals(providerId)) {
        return implementations[k];
      }
    }
    return null;
  }

  void add(ImplementationEntry implementation, int position) {
    if (size == implementations.length) {
      int capacity = Math.max(1, size * 2);
      implementations = Arrays.copyOf(implementations, capacity);
      positions = Arrays.copyOf(positions, capacity);
    }
    implementations[size] = implementation;
    positions[size] = position;
    size++;
  }

  /** Orders by provider position, stable (registration order within one provider); trims. */
  void freeze() {
    for (int k = 1; k < size; k++) {
      ImplementationEntry i = implementations[k];
      int pos = positions[k];
      int j = k - 1;
      while (j >= 0 && positions[j] > pos) {
        implementations[j + 1] = implementations[j];
        positions[j + 1] = positions[j];
        j--;
      }
      implementations[j + 1] = i;
      positions[j + 1] = pos;
    }
    if (size < implementations.length) {
      implementations = Arrays.copyOf(implementations, size);
      positions = Arrays.copyOf(positions, size);
    }
  }
}
