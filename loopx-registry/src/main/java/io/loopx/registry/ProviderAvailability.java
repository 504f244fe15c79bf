package io.loopx.registry;

import io.loopx.api.CapabilityId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Whether an optional provider is available: a capability that works without an extension asks
 * whether one is ready, and gets a status word and a {@code next_action} instead of an exception
 * (docs/contract/registry.md "optional resolution"). Produced by {@link
 * CapabilityRegistry#availability} or, when the activation state could not be read, by {@link
 * #stateUnavailable}.
 *
 * <p>The three flags mirror the readiness report of the selected provider (or, when none was
 * singled out, of the candidates as a group); they are empty when the state is unavailable.
 *
 * <p>Immutable value; safe to share between threads. Never holds null.
 *
 * @param status the status word
 * @param capabilityId the requested capability
 * @param protocol the requested protocol
 * @param providerId the named or singled-out provider; empty when several or none were considered
 * @param candidates installed providers with an implementation of the capability and protocol, in
 *     catalog order (empty when the state is unavailable)
 * @param installed whether the provider (or any candidate) is installed
 * @param enabled whether the provider (or any candidate) is enabled
 * @param doctorVerified whether the provider is ready (enabled and doctor-fresh)
 * @param resolved the resolved provider and implementation; present exactly when {@code READY}
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ProviderAvailability(
    AvailabilityStatus status,
    CapabilityId capabilityId,
    ProtocolId protocol,
    Optional<ProviderId> providerId,
    List<ProviderId> candidates,
    Optional<Boolean> installed,
    Optional<Boolean> enabled,
    Optional<Boolean> doctorVerified,
    Optional<Resolution.ResolvedCapability> resolved) {

  /** Rejects nulls, copies the list, and checks that {@code resolved} is present iff ready. */
  public ProviderAvailability {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(providerId, "providerId");
    candidates = List.copyOf(candidates);
    Objects.requireNonNull(installed, "installed");
    Objects.requireNonNull(enabled, "enabled");
    Objects.requireNonNull(doctorVerified, "doctorVerified");
    Objects.requireNonNull(resolved, "resolved");
    if (resolved.isPresent() != (status == AvailabilityStatus.READY)) {
      throw new InvalidValueException(
          "optional resolution", status.wireName(), "resolved must be present exactly when ready");
    }
  }

  /**
   * Returns the outcome for a caller that could not read the activation state: status {@code
   * extension_state_unavailable}, next action {@code repair_extension_state}, unknown flags.
   *
   * @param capabilityId the requested capability
   * @param protocol the requested protocol
   * @param providerId the provider the caller named, if any
   */
  public static ProviderAvailability stateUnavailable(
      CapabilityId capabilityId, ProtocolId protocol, Optional<ProviderId> providerId) {
    return new ProviderAvailability(
        AvailabilityStatus.EXTENSION_STATE_UNAVAILABLE,
        capabilityId,
        protocol,
        providerId,
        List.of(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  /** Returns whether the status is {@code ready}. */
  public boolean isReady() {
    return status == AvailabilityStatus.READY;
  }

  /** Returns the {@code next_action} word; empty when ready. */
  public Optional<String> nextAction() {
    return status.nextAction();
  }

  /**
   * Returns a new JSON object with the keys {@code status, next_action, capability_id, protocol,
   * extension_id, installed, enabled, doctor_verified, candidates}, each always present ({@code
   * null} where it does not apply).
   */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("status", status.wireName());
    putOptional(o, "next_action", nextAction());
    o.put("capability_id", capabilityId.value());
    o.put("protocol", protocol.value());
    putOptional(o, "extension_id", providerId.map(ProviderId::value));
    putFlag(o, "installed", installed);
    putFlag(o, "enabled", enabled);
    putFlag(o, "doctor_verified", doctorVerified);
    ArrayNode list = o.putArray("candidates");
    candidates.forEach(c -> list.add(c.value()));
    return o;
  }

  private static void putOptional(ObjectNode o, String key, Optional<String> value) {
    if (value.isPresent()) {
      o.put(key, value.get());
    } else {
      o.putNull(key);
    }
  }

  private static void putFlag(ObjectNode o, String key, Optional<Boolean> value) {
    if (value.isPresent()) {
      o.put(key, value.get().booleanValue());
    } else {
      o.putNull(key);
    }
  }
}
