package io.loopx.spring.boot;

import io.loopx.runtime.Loopx;
import org.apiguardian.api.API;

/**
 * Customizes the builder of the auto-configured {@link Loopx} after the {@code loopx.*} properties
 * and the collected beans were applied, in bean order (for example a bundled manifest, a trace
 * context source or a process launcher).
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
@FunctionalInterface
public interface LoopxBuilderCustomizer {

  /** Customizes {@code builder}. */
  void customize(Loopx.Builder builder);
}
