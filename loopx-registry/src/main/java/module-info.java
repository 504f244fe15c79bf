/**
 * The sealed capability registry: built-in and extension capabilities in one catalog, assembled in
 * one pass through provider-bound registration contexts, then sealed. Pure and in-memory: no file,
 * process or network access.
 */
@org.jspecify.annotations.NullMarked
module io.loopx.registry {
  requires static transitive org.jspecify;
  requires static transitive org.apiguardian.api;
  requires transitive io.loopx.api;
  requires com.google.common;

  exports io.loopx.registry;

  // explicit, host-selected built-in contributions only (BuiltinContributions)
  uses io.loopx.api.spi.BuiltinContribution;
}
