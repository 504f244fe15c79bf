package io.loopx.registry;

import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.spi.BuiltinProvider;
import io.loopx.api.spi.RegistrationContext;

/**
 * The provider-bound registration context handed to one contribution (package-private). Its
 * provider identity is fixed at creation; it forwards writes to its assembly, which checks that the
 * context is still open and applies the conflict rules under the assembly's lock.
 */
final class BoundContext implements RegistrationContext {
  private final RegistryAssembly assembly;
  private final ProviderId providerId;
  private final int position;
  private final String contributionId;
  private volatile boolean open = true;

  BoundContext(
      RegistryAssembly assembly, ProviderId providerId, int position, String contributionId) {
    this.assembly = assembly;
    this.providerId = providerId;
    this.position = position;
    this.contributionId = contributionId;
  }

  @Override
  public void addCapability(ProvidedCapability capability) {
    assembly.stageCapability(this, capability);
  }

  @Override
  public void addImplementation(
      CapabilityId capabilityId, ProtocolId protocol, BuiltinProvider provider) {
    assembly.stageImplementation(this, capabilityId, protocol, provider);
  }

  ProviderId providerId() {
    return providerId;
  }

  /** Returns the bound provider's position in the generation's provider list. */
  int position() {
    return position;
  }

  String contributionId() {
    return contributionId;
  }

  boolean isOpen() {
    return open;
  }

  void close() {
    open = false;
  }

  /** Names the bound provider; never exposes registry content. */
  @Override
  public String toString() {
    return "RegistrationContext[provider=" + providerId + ", contribution=" + contributionId + "]";
  }
}
