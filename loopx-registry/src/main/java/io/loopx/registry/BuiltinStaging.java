package io.loopx.registry;

import io.loopx.api.CapabilityId;
import io.loopx.api.LoopxException;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.spi.BuiltinProvider;
import io.loopx.api.spi.Origin;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 */
final class BuiltinStaging {
  private final Map<ProviderId, ProviderEntry> providers = new LinkedHashMap<>();
  private final Map<CapabilityId, CapabilityEntry> capabilities = new LinkedHashMap<>();
  private final Map<List<Object>, ImplementationEntry> implementations = new LinkedHashMap<>();

  void addProvider(ProviderEntry provider) {
    providers.put(provider.id(), provider);
  }

  /** Stages a capability of {@code providerId}; returns the conflict, or null if staged. */
  @Nullable LoopxException capability(ProviderId providerId, ProvidedCapability capability) {
    CapabilityEntry entry = new CapabilityEntry(capability, Origin.BUILTIN, providerId);
    CapabilityEntry earlier = capabilities.putIfAbsent(capability.id(), entry);
    if (earlier == null) {
      return null;
    }
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
    return null;
  }

  /** Stages an implementation by {@code providerId}; returns the conflict, or null if staged. */
  @Nullable LoopxException implementation(
      ProviderId providerId,
      CapabilityId capabilityId,
      ProtocolId protocol,
      BuiltinProvider handler) {
    List<Object> key = List.of(capabilityId, providerId);
    ImplementationEntry entry =
        new ImplementationEntry(capabilityId, protocol, providerId, Optional.of(handler));
    ImplementationEntry earlier = implementations.putIfAbsent(key, entry);
    if (earlier == null
        || (earlier.protocol().equals(protocol) && earlier.inProcess().orElseThrow() == handler)) {
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
    return Objects.requireNonNull(providers.get(providerId), "staged provider").describe();
  }

  /** Returns new lists of the staged providers, capabilities and implementations, in order. */
  ArrayList<ProviderEntry> providers() {
    return new ArrayList<>(providers.values());
  }

  ArrayList<CapabilityEntry> capabilities() {
    return new ArrayList<>(capabilities.values());
  }

  ArrayList<ImplementationEntry> implementations() {
    return new ArrayList<>(implementations.values());
  }

  void clear() {
    providers.clear();
    capabilities.clear();
    implementations.clear();
  }
}
