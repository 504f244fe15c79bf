package io.loopx.api.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import org.junit.jupiter.api.Test;

class ProviderStateTest {

  @Test
  void acceptsExactlyTheStatesThatKeepTheChainOfImplications() {
    int accepted = 0;
    for (int bits = 0; bits < 16; bits++) {
      boolean declared = (bits & 1) != 0;
      boolean installed = (bits & 2) != 0;
      boolean enabled = (bits & 4) != 0;
      boolean ready = (bits & 8) != 0;
      boolean valid = (!installed || declared) && (!enabled || installed) && (!ready || enabled);
      if (valid) {
        accepted++;
        assertThat(new ProviderState(declared, installed, enabled, ready).ready()).isEqualTo(ready);
      } else {
        assertThatThrownBy(() -> new ProviderState(declared, installed, enabled, ready))
            .isInstanceOfSatisfying(
                InvalidValueException.class,
                e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE))
            .hasMessageContaining("provider state")
            .hasMessageContaining("requires");
      }
    }
    assertThat(accepted).isEqualTo(5);
  }

  @Test
  void namedStates() {
    assertThat(ProviderState.BUILTIN).isEqualTo(new ProviderState(true, true, true, true));
    assertThat(ProviderState.DECLARED_ONLY).isEqualTo(new ProviderState(true, false, false, false));
    assertThat(ProviderState.installed(true, false))
        .isEqualTo(new ProviderState(true, true, true, false));
    assertThatThrownBy(() -> ProviderState.installed(false, true))
        .hasMessageContaining("ready requires enabled");
    assertThat(Origin.BUILTIN.wireName()).isEqualTo("builtin");
    assertThat(Origin.EXTENSION.wireName()).isEqualTo("extension");
  }
}
