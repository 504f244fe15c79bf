package io.loopx.registry;

import io.loopx.api.CapabilityId;
import io.loopx.api.LoopxException;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.spi.BuiltinProvider;
import io.loopx.api.spi.Origin;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What the built-in contributions of one assembly have registered so far, in registration order,
 * with the conflict rules that apply while they register (package-private). Not thread-safe: its
 * {@link RegistryAssembly} guards it with its lock. Identical repeats by the same provider are
 * no-ops; a conflicting write is not staged and returns the {@code CATALOG_CONFLICT} to throw.
 *
 * <p>Built-ins are staged straight into the final {@link CapabilitySlot}s of the generation: a
 * capability gets its slot when it is registered, and an implementation joins its capability's slot
 * when that is registered (before or after it). {@link #handOff} gives the slots to {@link
 * IndexBuilder}, which adds the extensions and runs the remaining seal checks. A staged built-in
 * passes every seal check except one: an implementation whose capability no built-in registered
 * ("waiting") is checked at seal like an extension's implementation, in registration order.
 */
final class BuiltinStaging {
  /** A built-in implementation with its provider's position in the generation. */
  static final class Waiting {
    final ImplementationEntry implementation;
    final int position;
    boolean adopted;

    Waiting(ImplementationEntry implementation, int position) {
      this.implementation = implementation;
      this.position = position;
    }
  }

  /**
   * The staged built-ins: the providers in position order, the slots of their capabilities by id
   * and in registration order (each already holding the implementations of its capability), every
   * implementation in registration order, and the implementations still waiting for a capability.
   */
  record Staged(
      List<ProviderEntry> providers,
      SlotTable slots,
      List<CapabilitySlot> capabilities,
      List<ImplementationEntry> implementations,
      List<Waiting> waiting) {
    static Staged empty(int capabilities) {
      return new Staged(List.of(), new SlotTable(capabilities), List.of(), List.of(), List.of());
    }
  }

  private ArrayList<ProviderEntry> providers = new ArrayList<>();
  private Map<ProviderId, ProviderEntry> providersById = new HashMap<>();
  private SlotTable slots = new SlotTable(0);
  private ArrayList<CapabilitySlot> capabilities = new ArrayList<>();
  private ArrayList<ImplementationEntry> implementations = new ArrayList<>();
  // Implementations whose capability no built-in has registered yet, by capability and in order.
  private Map<CapabilityId, List<Waiting>> waitingByCapability = new HashMap<>();
  private ArrayList<Waiting> waiting = new ArrayList<>();
  // The slot registered or looked up last: an implementation usually follows its capability.
  private @Nullable CapabilitySlot lastSlot;
  // The handler staged last and its Optional: a contribution usually has one handler for many.
  private @Nullable BuiltinProvider lastHandler;
  private Optional<BuiltinProvider> lastInProcess = Optional.empty();

  /**
   * Sizes the slot table for {@code capabilities} more capabilities (the extensions' count, known
   * before the built-ins register), so that it does not grow step by step while they are staged.
   */
  void reserve(int capabilities) {
    slots.ensureCapacity(capabilities);
  }

  /** Adds a provider at the next position; returns that position. */
  int addProvider(ProviderEntry provider) {
    providers.add(provider);
    providersById.put(provider.id(), provider);
    return providers.size() - 1;
  }

  /** Stages a capability of {@code providerId}; returns the conflict, or null if staged. */
  @Nullable LoopxException capability(ProviderId providerId, ProvidedCapability capability) {
    CapabilityEntry entry = new CapabilityEntry(capability, Origin.BUILTIN, providerId);
    CapabilitySlot slot = new CapabilitySlot(entry);
    CapabilitySlot earlierSlot = slots.putIfAbsent(slot);
    if (earlierSlot == null) {
      capabilities.add(slot);
      lastSlot = slot;
      if (!waitingByCapability.isEmpty()) {
        adoptWaiting(slot);
      }
      return null;
    }
    CapabilityEntry earlier = earlierSlot.capability();
    if (!earlier.providerId().equals(providerId)) {
      return Conflicts.conflict(
          "duplicate capability `" + capability.id() + "`",
          describe(earlier.providerId()),
          describe(providerId));
    }
    if (!earlier.equals(entry)) {
      return Conflicts.conflict(
          "conflicting capability `" + capability.id() + "`",
          describe(providerId),
          "the same provider with a different descriptor");
    }
    lastSlot = earlierSlot;
    return null;
  }

  private void adoptWaiting(CapabilitySlot slot) {
    List<Waiting> adopted = waitingByCapability.remove(slot.capability().id());
    if (adopted != null) {
      for (Waiting w : adopted) {
        slot.add(w.implementation, w.position);
        w.adopted = true;
      }
    }
  }

  /**
   * Stages an implementation by the provider at {@code position}; returns the conflict, or null if
   * staged.
   */
  @Nullable LoopxException implementation(
      ProviderId providerId,
      int position,
      CapabilityId capabilityId,
      ProtocolId protocol,
      BuiltinProvider handler) {
    CapabilitySlot last = lastSlot;
    CapabilitySlot slot =
        last != null && last.capability().id().equals(capabilityId)
            ? last
            : slots.get(capabilityId);
    List<Waiting> waitingHere = null;
    ImplementationEntry earlier;
    if (slot != null) {
      lastSlot = slot;
      earlier = slot.implementationBy(providerId);
    } else {
      waitingHere = waitingByCapability.get(capabilityId);
      earlier = null;
      for (int k = 0; waitingHere != null && k < waitingHere.size() && earlier == null; k++) {
        ImplementationEntry w = waitingHere.get(k).implementation;
        if (w.providerId().equals(providerId)) {
          earlier = w;
        }
      }
    }
    if (earlier == null) {
      if (handler != lastHandler) {
        lastInProcess = Optional.of(handler);
        lastHandler = handler;
      }
      ImplementationEntry entry =
          new ImplementationEntry(capabilityId, protocol, providerId, lastInProcess);
      implementations.add(entry);
      if (slot != null) {
        slot.add(entry, position);
      } else {
        Waiting w = new Waiting(entry, position);
        waiting.add(w);
        if (waitingHere == null) {
          waitingHere = new ArrayList<>(1);
          waitingByCapability.put(capabilityId, waitingHere);
        }
        waitingHere.add(w);
      }
      return null;
    }
    if (earlier.protocol().equals(protocol) && earlier.inProcess().orElseThrow() == handler) {
      return null;
    }
    String what =
        earlier.protocol().equals(protocol)
            ? "another in-process provider for protocol `" + protocol + "`"
            : "protocol `" + protocol + "` instead of `" + earlier.protocol() + "`";
    return Conflicts.conflict(
        "duplicate implementation of capability `" + capabilityId + "`",
        describe(providerId),
        "the same provider with " + what);
  }

  /** Describes a staged provider: every staged entry's provider was added before it. */
  private String describe(ProviderId providerId) {
    return Objects.requireNonNull(providersById.get(providerId), "staged provider").describe();
  }

  /** Returns what was staged and leaves this staging empty. */
  Staged handOff() {
    ArrayList<Waiting> stillWaiting = new ArrayList<>();
    for (Waiting w : waiting) {
      if (!w.adopted) {
        stillWaiting.add(w);
      }
    }
    Staged staged = new Staged(providers, slots, capabilities, implementations, stillWaiting);
    clear();
    return staged;
  }

  void clear() {
    providers = new ArrayList<>();
    providersById = new HashMap<>();
    slots = new SlotTable(0);
    capabilities = new ArrayList<>();
    implementations = new ArrayList<>();
    waitingByCapability = new HashMap<>();
    waiting = new ArrayList<>();
    lastSlot = null;
    lastHandler = null;
    lastInProcess = Optional.empty();
  }
}
