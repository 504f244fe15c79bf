package io.loopx.api.spi;

import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ProvidedCapability;
import org.apiguardian.api.API;

/**
 * The provider-bound, write-only surface through which one {@link BuiltinContribution} registers
 * its capabilities and in-process implementations during a registry assembly.
 *
 * <p><b>Implemented by LoopX</b>, never by hosts or extension authors; LoopX may add methods to it
 * in any release. The provider identity is fixed when the assembly creates the context: every write
 * is attributed to that provider, and a context kept by a contribution can never act for another
 * provider. The context exposes writes only, no reads of the registry.
 *
 * <p>Rules (violations throw {@link io.loopx.api.LoopxException}):
 *
 * <ul>
 *   <li>A key claimed by another provider fails with {@code CATALOG_CONFLICT}, even when the value
 *       is equal; the message names both providers.
 *   <li>An identical repeat by the same provider is a no-op; a different value for the same key
 *       fails with {@code CATALOG_CONFLICT}.
 *   <li>A write after the contribution's {@link BuiltinContribution#register} call returned, or
 *       after the assembly was sealed or discarded, fails with {@code REGISTRY_SEALED}.
 * </ul>
 *
 * <p>A failed write also fails the whole assembly, even if the contribution catches the exception.
 *
 * <p><b>Thread safety:</b> writes are serialised internally, but a contribution should register
 * from the thread that called {@code register}. <b>Nulls:</b> no argument may be null.
 */
@API(status = API.Status.STABLE, since = "0.1")
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
