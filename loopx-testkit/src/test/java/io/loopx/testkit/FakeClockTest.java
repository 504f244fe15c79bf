package io.loopx.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class FakeClockTest {

  @Test
  void standsStillUntilMoved() {
    FakeClock clock = FakeClock.create();

    assertThat(clock.instant()).isEqualTo(FakeClock.DEFAULT_START);
    assertThat(clock.instant()).isEqualTo(FakeClock.DEFAULT_START);
    assertThat(clock.millis()).isEqualTo(FakeClock.DEFAULT_START.toEpochMilli());
    assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
  }

  @Test
  void advancesAndSets() {
    FakeClock clock = FakeClock.at(Instant.EPOCH);

    assertThat(clock.advance(Duration.ofSeconds(90))).isEqualTo(Instant.ofEpochSecond(90));
    assertThat(clock.instant()).isEqualTo(Instant.ofEpochSecond(90));
    clock.set(Instant.ofEpochSecond(10));
    assertThat(clock.instant()).isEqualTo(Instant.ofEpochSecond(10));
    assertThat(clock.advance(Duration.ZERO)).isEqualTo(Instant.ofEpochSecond(10));
  }

  @Test
  void refusesToAdvanceBackwards() {
    FakeClock clock = FakeClock.create();

    assertThatThrownBy(() -> clock.advance(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT-0.001S");
    assertThat(clock.instant()).isEqualTo(FakeClock.DEFAULT_START);
  }

  @Test
  void zonedCopiesShareTheTime() {
    FakeClock utc = FakeClock.create();
    FakeClock paris = utc.withZone(ZoneId.of("Europe/Paris"));

    utc.advance(Duration.ofHours(1));

    assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
    assertThat(paris.instant()).isEqualTo(utc.instant());
    paris.set(Instant.EPOCH);
    assertThat(utc.instant()).isEqualTo(Instant.EPOCH);
  }
}
