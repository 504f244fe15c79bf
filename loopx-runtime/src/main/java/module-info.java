/**
 * Everything in LoopX that touches the world: manifest loading, durable activation state, runtime
 * identity and doctor, the lifecycle state machine, the bounded process runner and governed
 * dispatch. The project generator ({@code extension init}) is its own module, {@code
 * io.loopx.scaffold}.
 */
@org.jspecify.annotations.NullMarked
module io.loopx.runtime {
  requires static transitive org.jspecify;
  requires static transitive org.apiguardian.api;
  requires transitive io.loopx.registry;
  requires com.google.common;
  requires com.electronwill.nightconfig.core;
  requires com.electronwill.nightconfig.toml;
  requires jdk.jfr;

  exports io.loopx.runtime;
  exports io.loopx.runtime.conformance;
  exports io.loopx.runtime.dispatch;
  exports io.loopx.runtime.events;
  exports io.loopx.runtime.lifecycle;
  exports io.loopx.runtime.manifest;
  exports io.loopx.runtime.spi;
  exports io.loopx.runtime.run;
  exports io.loopx.runtime.state;
  // The contract kit's one hook (ContractHook, EnvelopeMutations): docs/ARCHITECTURE.md.
  exports io.loopx.runtime.internal.conformance to
      io.loopx.testkit;
}
