package io.loopx.registry;

import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.spi.ProviderState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rules of {@link CapabilityRegistry#availability} over one generation's index
 * (package-private; docs/contract/registry.md "optional resolution"); see that method for the rules
 * themselves.
 */
final class AvailabilityRules {
  private AvailabilityRules() {}

  static ProviderAvailability availability(
      RegistryIndex index,
      CapabilityId capabilityId,
      ProtocolId protocol,
      Optional<ProviderId> providerId) {
    List<ProviderEntry> candidates = new ArrayList<>();
    CapabilitySlot slot = index.slot(capabilityId);
    for (int k = 0; slot != null && k < slot.size(); k++) {
      ProviderEntry p = index.providerAt(slot.position(k));
      if (slot.implementation(k).protocol().equals(protocol) && p.state().installed()) {
        candidates.add(p);
      }
    }
    List<ProviderId> candidateIds = candidates.stream().map(ProviderEntry::id).toList();
    if (providerId.isPresent()) {
      ProviderEntry p = index.providerOrNull(providerId.get());
      if (p == null || !p.state().installed()) {
        return unresolved(
            AvailabilityStatus.EXTENSION_NOT_INSTALLED,
            capabilityId,
            protocol,
            providerId,
            candidateIds,
            false,
            false,
            false);
      }
      return evaluate(index, capabilityId, protocol, p, candidateIds);
    }
    List<ProviderAvailability> ready = new ArrayList<>();
    for (ProviderEntry p : candidates) {
      ProviderAvailability r = evaluate(index, capabilityId, protocol, p, candidateIds);
      if (r.isReady()) {
        ready.add(r);
      }
    }
    if (ready.size() > 1) {
      return unresolved(
          AvailabilityStatus.EXTENSION_PROVIDER_AMBIGUOUS,
          capabilityId,
          protocol,
          Optional.empty(),
          candidateIds,
          true,
          true,
          true);
    }
    if (ready.size() == 1) {
      return ready.get(0);
    }
    if (candidates.size() == 1) {
      return evaluate(index, capabilityId, protocol, candidates.get(0), candidateIds);
    }
    if (candidates.isEmpty()) {
      return unresolved(
          AvailabilityStatus.EXTENSION_PROVIDER_NOT_INSTALLED,
          capabilityId,
          protocol,
          Optional.empty(),
          candidateIds,
          false,
          false,
          false);
    }
    // >= 2 candidates (so installed), none ready: enabled if any candidate is.
    boolean anyEnabled = candidates.stream().anyMatch(p -> p.state().enabled());
    return unresolved(
        AvailabilityStatus.EXTENSION_PROVIDER_NOT_READY,
        capabilityId,
        protocol,
        Optional.empty(),
        candidateIds,
        true,
        anyEnabled,
        false);
  }

  private static ProviderAvailability evaluate(
      RegistryIndex index,
      CapabilityId capabilityId,
      ProtocolId protocol,
      ProviderEntry p,
      List<ProviderId> candidates) {
    Optional<ImplementationEntry> implementation =
        index.implementation(capabilityId, protocol, p.id());
    ProviderState s = p.state();
    AvailabilityStatus status;
    if (!p.apiCompatible() || implementation.isEmpty()) {
      status = AvailabilityStatus.EXTENSION_INCOMPATIBLE;
    } else if (!s.enabled()) {
      status = AvailabilityStatus.EXTENSION_DISABLED;
    } else if (!s.ready()) {
      status = AvailabilityStatus.EXTENSION_DOCTOR_NOT_READY;
    } else {
      status = AvailabilityStatus.READY;
    }
    Optional<Resolution.ResolvedCapability> resolved =
        status == AvailabilityStatus.READY
            ? Optional.of(
                new Resolution.ResolvedCapability(capabilityId, protocol, p, implementation.get()))
            : Optional.empty();
    return new ProviderAvailability(
        status,
        capabilityId,
        protocol,
        Optional.of(p.id()),
        candidates,
        Optional.of(true),
        Optional.of(s.enabled()),
        Optional.of(s.ready()),
        resolved);
  }

  /** An outcome without a resolved provider, with the given flags. */
  private static ProviderAvailability unresolved(
      AvailabilityStatus status,
      CapabilityId capabilityId,
      ProtocolId protocol,
      Optional<ProviderId> providerId,
      List<ProviderId> candidates,
      boolean installed,
      boolean enabled,
      boolean doctorVerified) {
    return new ProviderAvailability(
        status,
        capabilityId,
        protocol,
        providerId,
        candidates,
        Optional.of(installed),
        Optional.of(enabled),
        Optional.of(doctorVerified),
        Optional.empty());
  }
}
