/**
 * Test support for hosts and extension authors: fakes that run the real LoopX code in a fake world
 * (Jimfs runtime roots, scripted processes, a fake clock) and the provider contract kit.
 */
@org.jspecify.annotations.NullMarked
module io.loopx.testkit {
  requires static transitive org.jspecify;
  requires transitive io.loopx.runtime;
  requires com.google.common.jimfs;
  requires org.junit.jupiter.api;
  requires org.assertj.core;

  // exports io.loopx.testkit; (added with the first testkit type)
  exports io.loopx.testkit.contract;
}
