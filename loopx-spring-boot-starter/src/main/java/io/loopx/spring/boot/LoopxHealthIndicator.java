package io.loopx.spring.boot;

import io.loopx.api.LoopxException;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.lifecycle.ListReceipt;
import java.util.List;
import org.apiguardian.api.API;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The readiness of a {@link Loopx} (health contributor {@code loopx},
 * docs/spring-boot.md#health-and-readiness): UP when the store reads and every enabled extension
 * has a fresh doctor proof; DOWN with the enabled extensions that are not doctor-ready ({@code
 * notReady}), or with the store's error kind when the store cannot be read ({@code store}). Reads
 * only ({@link Loopx#list()}): it never runs a doctor or changes state.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public class LoopxHealthIndicator implements HealthIndicator {
  private final Loopx loopx;

  /** Creates the indicator of {@code loopx}. */
  public LoopxHealthIndicator(Loopx loopx) {
    this.loopx = loopx;
  }

  @Override
  public Health health() {
    ListReceipt list;
    try {
      list = loopx.list();
    } catch (LoopxException e) {
      return Health.down()
          .withDetail("store", "unreachable")
          .withDetail("error", e.kind().wireName())
          .withDetail("message", String.valueOf(e.getMessage()))
          .build();
    }
    List<String> enabled =
        list.extensions().stream()
            .filter(ListReceipt.Entry::enabled)
            .map(e -> e.id().toString())
            .toList();
    List<String> notReady =
        list.extensions().stream()
            .filter(e -> e.enabled() && !e.doctorVerified())
            .map(e -> e.id().toString())
            .toList();
    Health.Builder health = notReady.isEmpty() ? Health.up() : Health.down();
    return health
        .withDetail("store", "reachable")
        .withDetail("enabled", enabled)
        .withDetail("notReady", notReady)
        .build();
  }
}
