package io.loopx.api.manifest;

import java.util.Locale;
import org.apiguardian.api.API;

/** Catalog visibility of a capability: public ones are listed, internal ones only resolvable. */
@API(status = API.Status.STABLE, since = "1.0")
public enum Visibility {
  /** Listed in the public catalog. */
  PUBLIC,
  /** Registered and resolvable, but omitted from the public catalog. */
  INTERNAL;

  /** Returns the wire name, {@code public} or {@code internal}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
