package io.loopx.api.spi;

import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ProvidedCapability;
import org.apiguardian.api.API;

/**
 * The provider-bound, write-only surface through which one {@link BuiltinContribution} registers
 * its capabilities and in-process implementations during a registry assembly.
 *
 * <pre>{@code
 * public void register(RegistrationContext context) {
 *   context.addCapability(notesCapability);
 *   context.addImplementation(CapabilityId.of("notes"), ProtocolId.of("notes_v0"), notesHandler);
 * }
 * }</pre>
 *
 * <p><b>Implemented by LoopX</b>, never by hosts or extension authors; LoopX may add methods to it
 * in any release. Every write is attributed to the provider fixed when the assembly created the
 * context. A key claimed by another provider, or the same key with another value, fails with {@code
 * CATALOG_CONFLICT}; an identical repeat is a no-op; a write after {@code register} returned fails
 * with {@code REGISTRY_SEALED}; a failed write fails the whole assembly
 * (docs/contract/registry.md). Register from the calling thread; no argument may be null.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface RegistrationContext {

  /**
   * Registers a capability contract owned by this context's provider (origin {@code builtin}). Its
   * visibility decides whether the public catalog lists it; internal capabilities stay resolvable.
   *
   * @param capability the capability descriptor; its metadata is deep-copied
   */
  void addCapability(ProvidedCapability capability);

  /**
   * Registers this context's provider as an in-process implementation of a capability over a
   * protocol. The key is (capability, provider): one implementation per capability and provider.
   * The capability must exist when the assembly is sealed (registered by any built-in or provided
   * by an extension), else the seal fails with {@code CATALOG_CONFLICT}.
   *
   * @param capabilityId the implemented capability
   * @param protocol the protocol the provider speaks
   * @param provider the in-process handler; repeats are identical only with the same instance
   */
  void addImplementation(CapabilityId capabilityId, ProtocolId protocol, BuiltinProvider provider);
}
