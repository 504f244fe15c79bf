/**
 * The stable LoopX contract that extension authors and hosts compile against: identifiers, the
 * normalised manifest model, canonical JSON and digests, the execution envelope and its verifier,
 * the typed error model, the in-process SPI for built-in contributions, and the helper that runs a
 * {@code java_main} provider's protocol.
 *
 * <p>Signatures use only JDK types, types of this module and, for JSON payloads, Jackson 3 tree
 * nodes.
 */
@org.jspecify.annotations.NullMarked
module io.loopx.api {
  requires static transitive org.jspecify;
  requires static transitive org.apiguardian.api;
  requires transitive tools.jackson.databind;

  exports io.loopx.api;
  exports io.loopx.api.manifest;
  exports io.loopx.api.json;
  exports io.loopx.api.provider;
  exports io.loopx.api.spi;
  exports io.loopx.api.envelope;
  // Shared helpers of the LoopX modules, not API.
  exports io.loopx.api.internal to
      io.loopx.registry,
      io.loopx.runtime;
}
