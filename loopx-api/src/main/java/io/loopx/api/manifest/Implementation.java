package io.loopx.api.manifest;

import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * An {@code [[implements]]} entry: this extension's runtime implements an existing capability over
 * a protocol, which equals the runtime protocol.
 *
 * @param capabilityId the implemented capability (built-in or provided by an extension)
 * @param protocol the protocol, equal to {@link RuntimeSpec#protocol()}
 */
@API(status = API.Status.STABLE, since = "1.0")
public record Implementation(CapabilityId capabilityId, ProtocolId protocol) {
  /** Rejects nulls. */
  public Implementation {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
  }
}
