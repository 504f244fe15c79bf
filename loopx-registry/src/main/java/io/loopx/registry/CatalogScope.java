package io.loopx.registry;

import io.loopx.api.manifest.Visibility;
import org.apiguardian.api.API;

/**
 * Which capabilities a catalog read lists: the public catalog omits {@link Visibility#INTERNAL}
 * capabilities, which remain registered and resolvable.
 *
 * <p>Used by hosts and the runtime, never implemented; immutable and thread-safe. Never pass null.
 */
@API(status = API.Status.STABLE, since = "1.0")
public enum CatalogScope {
  /** Public capabilities only (the default catalog). */
  PUBLIC,
  /** Public and internal capabilities. */
  INCLUDE_INTERNAL;

  /** Returns whether a capability of the given visibility is listed in this scope. */
  public boolean includes(Visibility visibility) {
    return this == INCLUDE_INTERNAL || visibility == Visibility.PUBLIC;
  }
}
