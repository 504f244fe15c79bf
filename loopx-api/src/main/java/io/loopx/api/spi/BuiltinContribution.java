package io.loopx.api.spi;

import io.loopx.api.ProviderId;
import org.apiguardian.api.API;

/**
 * A host's in-process contribution to the capability registry: one built-in provider with its
 * capabilities and in-process implementations.
 *
 * <p><b>Implemented by hosts</b> (and by libraries that ship built-ins for hosts). The host selects
 * contributions explicitly, by instance or class, or by {@link #id()} from a {@code ServiceLoader};
 * nothing is discovered implicitly. During assembly LoopX calls {@link #id()}, {@link
 * #providerId()} and then {@link #register} exactly once per assembly, on the assembling thread,
 * with a context bound to {@link #providerId()}. If {@code register} throws, the whole assembly is
 * discarded and the failure ({@code CONTRIBUTION_FAILED}) names this contribution.
 *
 * <p>Evolution: new methods are only added as default methods, so implementations never break.
 * <b>Thread safety:</b> an instance may be used by several assemblies (one per registry
 * generation), possibly on different threads; keep it stateless or thread-safe. <b>Nulls:</b> no
 * method returns null.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface BuiltinContribution {

  /**
   * Returns the contribution id used for selection and in error messages: lower-kebab-case, 1..48
   * characters, unique among the contributions of one assembly.
   */
  String id();

  /**
   * Returns the provider this contribution registers as; the default is {@link
   * ProviderId#LOOPX_CORE}. Provider ids are unique: two contributions of one assembly may not
   * claim the same provider, and no extension may use a built-in provider id.
   */
  default ProviderId providerId() {
    return ProviderId.LOOPX_CORE;
  }

  /**
   * Registers this contribution's capabilities and implementations. Called once per assembly; the
   * context rejects writes once this method returns.
   *
   * @param context the write-only context bound to {@link #providerId()}
   */
  void register(RegistrationContext context);
}
