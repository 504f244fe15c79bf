/**
 * The provider contract kit: {@link io.loopx.testkit.contract.ProviderContractTest}, an abstract
 * JUnit 5 class an extension author extends to prove that a provider keeps the LoopX provider
 * protocol, checked with the real runtime and real processes. It depends on JUnit Jupiter, AssertJ
 * and LoopX only; its generated inputs come from seeded {@link java.util.Random}s.
 */
@NullMarked
package io.loopx.testkit.contract;

import org.jspecify.annotations.NullMarked;
