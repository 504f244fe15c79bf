package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ExtensionRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host JVMs writing at once: in each round every host sends one counting operation ({@link
 * HostMain#count}: the entry's counter goes up by one and its enabled bit flips), on one of two
 * shared entries or on its own entry in turn, all at the same moment. No update is lost: each
 * entry's counter equals the operations reported committed on it and its enabled bit their parity;
 * every failure is typed {@code state_conflict} or {@code state_locked}.
 */
class FleetConcurrencyTest {
  static final int HOSTS = Integer.getInteger("loopx.reliability.fleetHosts", 4);
  static final int OPS = Integer.getInteger("loopx.reliability.fleetOpsPerHost", 8);

  @TempDir Path tmp;

  @Test
  void noLostUpdatesAndEveryFailureTyped() throws Exception {
    try (Fleet fleet = new Fleet()) {
      List<HostJvm> hosts = fleet.start(tmp, HOSTS, 1000);
      Map<String, Integer> committed = new TreeMap<>();
      Map<String, Integer> failures = new TreeMap<>();
      long started = System.nanoTime();
      for (int round = 0; round < OPS; round++) {
        List<String> ids = new ArrayList<>();
        for (int h = 0; h < HOSTS; h++) {
          String id =
              round % 2 == 0 ? ((round / 2 + h) % 2 == 0 ? "shared-a" : "shared-b") : "own-" + h;
          ids.add(id);
          hosts.get(h).send("op " + id);
        }
        for (int h = 0; h < HOSTS; h++) {
          String reply = hosts.get(h).reply();
          String[] w = reply.split(" ");
          if (w[0].equals("ok")) {
            committed.merge(ids.get(h), 1, Integer::sum);
          } else {
            assertThat(w[0]).as(reply).isEqualTo("failed");
            assertThat(w[1]).as(reply).isIn("state_conflict", "state_locked");
            failures.merge(w[1], 1, Integer::sum);
          }
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      ActivationState state = PostgresActivationStore.of(fleet.dataSource).read();
      boolean installedEnabled = Records.installed("x-ext").enabled();
      for (Map.Entry<String, Integer> e : committed.entrySet()) {
        ExtensionRecord r = state.installed(ExtensionId.of(e.getKey()));
        assertThat(HostMain.counter(r)).as(e.getKey()).isEqualTo(e.getValue());
        assertThat(r.enabled()).as(e.getKey()).isEqualTo(e.getValue() % 2 == 1 == installedEnabled);
      }
      int total = committed.values().stream().mapToInt(Integer::intValue).sum();
      assertThat(state.extensions()).hasSize(committed.size());
      Fleet.report(
          "fleet-concurrency",
          String.format(
              "fleet-concurrency: %d host JVMs x %d operations (%d at once per round, shared and"
                  + " own entries): %d committed, failures %s, lost updates 0 (every counter equals"
                  + " its committed operations: %s); %.1f s",
              HOSTS, OPS, HOSTS, total, failures, committed, seconds));
    }
  }
}
