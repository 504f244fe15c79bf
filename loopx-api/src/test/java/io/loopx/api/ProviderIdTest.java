package io.loopx.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProviderIdTest {

  @Test
  void lowerKebabLikeExtensionIds() {
    assertThat(ProviderId.of("loopx-core")).isEqualTo(ProviderId.LOOPX_CORE);
    assertThat(ProviderId.of(ExtensionId.of("loopx-text-stats")).value())
        .isEqualTo("loopx-text-stats");
    for (String bad :
        new String[] {"", "Core", "loopx_core", "-x", "x-", "a--b", "1x", "a".repeat(49)}) {
      assertThatThrownBy(() -> ProviderId.of(bad))
          .isInstanceOfSatisfying(
              InvalidValueException.class, e -> assertThat(e.what()).isEqualTo("provider id"));
    }
    assertThat(ProviderId.of("a".repeat(48)).value()).hasSize(48);
    assertThat(ProviderId.of("b").compareTo(ProviderId.of("a"))).isPositive();
  }
}
