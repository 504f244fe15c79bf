package io.loopx.registry;

import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.spi.ProviderState;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * An installed extension as the activation state describes it: the active revision's manifest
 * snapshot and its lifecycle flags. The caller (the LoopX runtime) computes the flags: {@code
 * enabled} from the state, {@code ready} = enabled and the doctor proof fresh.
 *
 * <p>Immutable value, created by the runtime or by hosts and tests; never holds null.
 *
 * @param manifest the active revision's normalised manifest
 * @param enabled whether the extension is enabled
 * @param ready whether it is enabled and its doctor proof is fresh
 */
@API(status = API.Status.STABLE, since = "1.0")
public record InstalledExtension(ExtensionManifest manifest, boolean enabled, boolean ready) {
  /**
   * Rejects null and checks ready ⇒ enabled ({@link io.loopx.api.InvalidValueException} naming the
   * state when broken).
   */
  public InstalledExtension {
    Objects.requireNonNull(manifest, "manifest");
    ProviderState.installed(enabled, ready);
  }
}
