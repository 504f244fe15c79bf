package io.loopx.registry;

import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.spi.BuiltinProvider;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One implementation of a capability by a provider over a protocol. A built-in implementation
 * carries its in-process {@link BuiltinProvider}; an extension implementation has none (the runtime
 * starts the extension's provider process).
 *
 * <p>Immutable value, created by the registry; safe to share between threads (the in-process
 * handler is trusted host code and must itself be thread-safe). Never holds null.
 *
 * @param capabilityId the implemented capability
 * @param protocol the protocol the provider speaks
 * @param providerId the implementing provider
 * @param inProcess the in-process handler of a built-in implementation, empty for an extension
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ImplementationEntry(
    CapabilityId capabilityId,
    ProtocolId protocol,
    ProviderId providerId,
    Optional<BuiltinProvider> inProcess) {
  /** Rejects nulls. */
  public ImplementationEntry {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(providerId, "providerId");
    Objects.requireNonNull(inProcess, "inProcess");
  }
}
