package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** The builder's bounds are refused before any connection is made (no server needed). */
class BuilderArgumentsTest {

  @Test
  void theLockTimeoutAndThePollIntervalMustBePositive() {
    PostgresActivationStore.Builder builder =
        PostgresActivationStore.builder(new PGSimpleDataSource());

    assertThatThrownBy(() -> builder.lockTimeout(Duration.ZERO))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("lock timeout must be positive: PT0S");
    assertThatThrownBy(() -> builder.pollInterval(Duration.ofMillis(-5)))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("poll interval must be positive: PT-0.005S");
  }
}
