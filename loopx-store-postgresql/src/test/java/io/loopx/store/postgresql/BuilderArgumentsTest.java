package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.InvalidValueException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The builder's bounds are refused before any connection is made (no server needed), with the one
 * exception type of a bad argument.
 */
class BuilderArgumentsTest {

  @Test
  void theLockTimeoutAndThePollIntervalMustBePositive() {
    PostgresActivationStore.Builder builder =
        PostgresActivationStore.builder(new PGSimpleDataSource());

    assertThatThrownBy(() -> builder.lockTimeout(Duration.ZERO))
        .isExactlyInstanceOf(InvalidValueException.class)
        .hasMessage("invalid lock timeout `PT0S`: must be positive");
    assertThatThrownBy(() -> builder.pollInterval(Duration.ofMillis(-5)))
        .isExactlyInstanceOf(InvalidValueException.class)
        .hasMessage("invalid poll interval `PT-0.005S`: must be positive");
  }

  @Test
  void aMissingArgumentIsAnInvalidValue() {
    PostgresActivationStore.Builder builder =
        PostgresActivationStore.builder(new PGSimpleDataSource());

    assertThatThrownBy(() -> PostgresActivationStore.builder(null))
        .isExactlyInstanceOf(InvalidValueException.class);
    assertThatThrownBy(() -> builder.lockTimeout(null))
        .isExactlyInstanceOf(InvalidValueException.class);
    assertThatThrownBy(() -> builder.pollInterval(null))
        .isExactlyInstanceOf(InvalidValueException.class);
    assertThatThrownBy(() -> builder.onChange(null))
        .isExactlyInstanceOf(InvalidValueException.class);
  }
}
