package io.loopx.api.spi;

import io.loopx.api.InvalidValueException;
import org.apiguardian.api.API;

/**
 * A provider's lifecycle flags as the catalog reports them ({@code provider_state}).
 *
 * <p>Invariants, checked on construction: installed ⇒ declared, enabled ⇒ installed, ready ⇒
 * enabled. Built-in providers are {@link #BUILTIN} (all true); a declaration-only manifest is
 * {@link #DECLARED_ONLY}; an installed extension is {@link #installed(boolean, boolean)}.
 *
 * <p>Immutable value, safe to share between threads. Created by LoopX and by hosts that describe
 * installed extensions; never null.
 *
 * @param declared a manifest or built-in registration declares the provider
 * @param installed the provider is installed (built-ins always are)
 * @param enabled the provider is enabled
 * @param ready the provider may dispatch: enabled and, for extensions, doctor proof fresh
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ProviderState(boolean declared, boolean installed, boolean enabled, boolean ready) {
  /** The state of every built-in provider: all flags true. */
  public static final ProviderState BUILTIN = new ProviderState(true, true, true, true);

  /** The state of a declaration-only manifest: declared, nothing else. */
  public static final ProviderState DECLARED_ONLY = new ProviderState(true, false, false, false);

  /** Checks the invariants; throws {@link InvalidValueException} naming the state when broken. */
  public ProviderState {
    if (installed && !declared) {
      throw invalid(declared, installed, enabled, ready, "installed requires declared");
    }
    if (enabled && !installed) {
      throw invalid(declared, installed, enabled, ready, "enabled requires installed");
    }
    if (ready && !enabled) {
      throw invalid(declared, installed, enabled, ready, "ready requires enabled");
    }
  }

  /**
   * Returns the state of an installed extension; throws {@link InvalidValueException} when {@code
   * ready} is true but {@code enabled} is false.
   */
  public static ProviderState installed(boolean enabled, boolean ready) {
    return new ProviderState(true, true, enabled, ready);
  }

  private static InvalidValueException invalid(
      boolean declared, boolean installed, boolean enabled, boolean ready, String rule) {
    return new InvalidValueException(
        "provider state",
        "{declared=%s, installed=%s, enabled=%s, ready=%s}"
            .formatted(declared, installed, enabled, ready),
        rule);
  }
}
