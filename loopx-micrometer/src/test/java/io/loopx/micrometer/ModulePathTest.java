package io.loopx.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Proves that this module's tests run on the module path, inside the named module. */
class ModulePathTest {

  @Test
  void testsRunInsideTheNamedModule() {
    Module module = getClass().getModule();

    assertThat(module.isNamed()).isTrue();
    assertThat(module.getName()).isEqualTo("io.loopx.micrometer");
    assertThat(module.getDescriptor().isAutomatic()).isFalse();
  }
}
