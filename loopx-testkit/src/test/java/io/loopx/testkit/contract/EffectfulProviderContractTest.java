package io.loopx.testkit.contract;

import io.loopx.api.spi.BuiltinContribution;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The kit used as documented, on an effectful provider that verifies its envelope ({@link
 * EnvelopeCheckingProvider}, a child JVM behind a shell launcher, implementing the host capability
 * {@code demo-recall}, declaring {@code [runtime.worker]}): all five checks pass, the envelope
 * check and the worker check (ProviderMain's worker mode) included.
 */
class EffectfulProviderContractTest extends ProviderContractTest {
  @TempDir static Path packages;
  static Path manifest;

  @BeforeAll
  static void writePackage() {
    manifest =
        Fixtures.effectful(
            packages.resolve("demo-envelope"),
            "demo-envelope",
            Fixtures.javaMain(EnvelopeCheckingProvider.class),
            "[runtime.worker]\n");
  }

  @Override
  protected Path manifest() {
    return manifest;
  }

  @Override
  protected ObjectNode validRequest() {
    return Fixtures.validRequest();
  }

  @Override
  protected Optional<EnvelopeBinding> envelopeBinding() {
    return Optional.of(Fixtures.binding());
  }

  @Override
  protected List<BuiltinContribution> builtins() {
    return List.of(Fixtures.contract());
  }
}
