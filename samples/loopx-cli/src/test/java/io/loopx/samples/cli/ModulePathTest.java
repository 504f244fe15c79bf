package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Proves that the CLI's tests run inside its named module, so it sees only exported packages. */
class ModulePathTest {

  @Test
  void testsRunInsideTheNamedModule() {
    Module module = getClass().getModule();

    assertThat(module.isNamed()).isTrue();
    assertThat(module.getName()).isEqualTo("io.loopx.samples.cli");
    assertThat(module.getDescriptor().exports()).isEmpty();
  }
}
