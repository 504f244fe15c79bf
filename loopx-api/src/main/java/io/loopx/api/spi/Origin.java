package io.loopx.api.spi;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * Where a provider (and every capability it provides) comes from: compiled into the host as a
 * built-in, or delivered by an extension with its own lifecycle.
 *
 * <p>Used by LoopX read models; hosts and extension authors only read it. Immutable and
 * thread-safe; no method returns null.
 */
@API(status = API.Status.STABLE, since = "1.0")
public enum Origin {
  /** Registered in process by a {@link BuiltinContribution} of the host. */
  BUILTIN,
  /** Declared by an extension manifest (declaration-only or installed). */
  EXTENSION;

  /** Returns the wire name, {@code builtin} or {@code extension}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
