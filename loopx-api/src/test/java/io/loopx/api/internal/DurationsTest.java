package io.loopx.api.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

  @Test
  void onlyDurationsLongerThanZeroArePositive() {
    assertThat(Durations.positive(Duration.ofNanos(1))).isTrue();
    assertThat(Durations.positive(Duration.ZERO)).isFalse();
    assertThat(Durations.positive(Duration.ofNanos(-1))).isFalse();
    assertThat(Durations.requirePositive("deadline", Duration.ofSeconds(3)))
        .isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void aDurationThatIsNotPositiveIsAnInvalidValueNamedByTheCaller() {
    assertThatThrownBy(() -> Durations.requirePositive("process timeout", Duration.ofSeconds(-1)))
        .isInstanceOf(InvalidValueException.class)
        .hasMessage("invalid process timeout `PT-1S`: must be positive")
        .satisfies(
            e -> assertThat(((InvalidValueException) e).kind()).isEqualTo(ErrorKind.INVALID_VALUE));
    assertThatThrownBy(() -> Durations.requirePositive("deadline", Duration.ZERO))
        .hasMessage("invalid deadline `PT0S`: must be positive");
  }
}
