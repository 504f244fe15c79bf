/** A JPMS host of LoopX: it requires the LoopX modules by name, as a modular application does. */
module com.example.loopxconsumer {
  requires io.loopx.api;
  requires io.loopx.registry;
  requires io.loopx.runtime;
}
