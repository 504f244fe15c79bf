package io.loopx.runtime.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.InvalidValueException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LaunchResultTest {
  private static final Duration D = Duration.ofMillis(5);

  @Test
  void onlyExitedCarriesAnExitCode() {
    LaunchResult exited = LaunchResult.exited(3, new byte[] {1}, new byte[0], D);

    assertThat(exited.outcome()).isEqualTo(LaunchOutcome.EXITED);
    assertThat(exited.exitCode()).hasValue(3);
    assertThat(exited.exitedWithZero()).isFalse();
    assertThat(LaunchResult.exited(0, new byte[0], new byte[0], D).exitedWithZero()).isTrue();
  }

  @Test
  void onlyNotStartedCarriesAReasonAndNoOutput() {
    LaunchResult notStarted = LaunchResult.notStarted("no such program", D);

    assertThat(notStarted.startFailure()).contains("no such program");
    assertThat(notStarted.exitCode()).isEmpty();
    assertThat(notStarted.exitedWithZero()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(
      value = LaunchOutcome.class,
      names = {"CANCELLED", "TIMED_OUT", "STDOUT_OVER_LIMIT", "STDERR_OVER_LIMIT"})
  void stopOutcomesCarryNeitherCodeNorReason(LaunchOutcome outcome) {
    LaunchResult stopped = LaunchResult.stopped(outcome, new byte[] {1}, new byte[] {2}, D);

    assertThat(stopped.outcome()).isEqualTo(outcome);
    assertThat(stopped.exitCode()).isEmpty();
    assertThat(stopped.startFailure()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(
      value = LaunchOutcome.class,
      names = {"NOT_STARTED", "EXITED"})
  void stoppedRefusesOutcomesThatAreNotStops(LaunchOutcome outcome) {
    assertThatThrownBy(() -> LaunchResult.stopped(outcome, new byte[0], new byte[0], D))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining(outcome.name());
  }

  @Test
  void aNegativeDurationIsRefused() {
    assertThatThrownBy(() -> LaunchResult.notStarted("x", Duration.ofMillis(-1)))
        .isInstanceOf(InvalidValueException.class);
  }

  @Test
  void bytesAreCopied() {
    byte[] out = {1, 2};
    LaunchResult a = LaunchResult.exited(0, out, new byte[0], D);
    out[0] = 9;
    a.stdout()[1] = 9;

    assertThat(a.stdout()).containsExactly(1, 2);
    assertThat(a.toString()).contains("stdout=2 bytes");
  }

  @Test
  void theOutcomesAreDeclaredInTheSpecsFirstMatchOrder() {
    assertThat(LaunchOutcome.values())
        .containsExactly(
            LaunchOutcome.NOT_STARTED,
            LaunchOutcome.EXECUTABLE_MISMATCH,
            LaunchOutcome.CANCELLED,
            LaunchOutcome.MEMORY_LIMIT,
            LaunchOutcome.TIMED_OUT,
            LaunchOutcome.STDOUT_OVER_LIMIT,
            LaunchOutcome.STDERR_OVER_LIMIT,
            LaunchOutcome.EXITED);
  }
}
