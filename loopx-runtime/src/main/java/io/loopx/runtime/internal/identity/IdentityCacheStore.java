package io.loopx.runtime.internal.identity;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Where an {@link IdentityCache} keeps its entries between processes. Implementations never throw:
 * a store that cannot be read loads nothing, and a failed save is ignored (the cache is a hint that
 * every use re-checks against {@code stat}, never a source of truth).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface IdentityCacheStore {
  /** A store that keeps nothing. */
  IdentityCacheStore NONE =
      new IdentityCacheStore() {
        @Override
        public List<CachedFile> load() {
          return List.of();
        }

        @Override
        public void save(List<CachedFile> entries) {
          // nothing is kept
        }
      };

  /** Returns the stored entries; empty when there are none or they cannot be trusted. */
  List<CachedFile> load();

  /** Replaces the stored entries with {@code entries}, best effort. */
  void save(List<CachedFile> entries);
}
