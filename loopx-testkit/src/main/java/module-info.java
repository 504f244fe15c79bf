/**
 * Test support for hosts and extension authors: fakes that run the real LoopX code in a fake world
 * (Jimfs runtime roots, scripted processes, a fake clock) and the provider contract kit.
 */
@org.jspecify.annotations.NullMarked
module io.loopx.testkit {
  requires static transitive org.jspecify;
  requires static transitive org.apiguardian.api;
  requires transitive io.loopx.runtime;
  requires com.google.common.jimfs;
  // ProviderContractTest's public test methods carry JUnit annotations and parameters.
  requires transitive org.junit.jupiter.api;
  // ReceiptAssert extends AssertJ's AbstractAssert: users of the testkit read AssertJ too.
  requires transitive org.assertj.core;

  exports io.loopx.testkit;
  exports io.loopx.testkit.contract;
}
