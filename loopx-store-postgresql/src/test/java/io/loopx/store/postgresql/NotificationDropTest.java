package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Notification connections dropped under load: listening host JVMs while another host JVM commits
 * in a loop; the test terminates every other client backend ({@code pg_terminate_backend}, so each
 * listener's {@code LISTEN} connection and the writer's connection), then commits, and every
 * listener reports that commit's generation within the polling bound (plus reconnecting), each
 * time. The writer's failures are typed {@code io_failed}.
 */
class NotificationDropTest {
  static final int LISTENERS = 3;
  static final int DROPS = Integer.getInteger("loopx.reliability.notificationDrops", 3);
  static final long POLL_MILLIS = 250;

  /** The bound asserted: eight polling intervals, for reconnecting on a busy 2-core machine. */
  static final long BOUND_MILLIS = 8 * POLL_MILLIS;

  @TempDir Path tmp;

  @Test
  void generationsFollowWithinThePollingBoundAfterEveryDrop() throws Exception {
    EmbeddedPostgres pg = EmbeddedPostgres.shared();
    try (Fleet fleet = new Fleet()) {
      List<HostJvm> listeners = fleet.start(tmp, LISTENERS, POLL_MILLIS);
      HostJvm writer = fleet.start(tmp, 1, POLL_MILLIS).get(0);
      writer.send("loop load-ext");
      PostgresActivationStore parent = PostgresActivationStore.of(fleet.dataSource);
      ExtensionId id = ExtensionId.of("probe-ext");
      long[] latencies = new long[DROPS * LISTENERS];
      int n = 0;
      for (int d = 0; d < DROPS; d++) {
        pg.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                + " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
        long committed;
        while (true) {
          try {
            parent.update("count", HostMain.count(parent.read(), List.of(id)));
            committed = System.nanoTime();
            break;
          } catch (LoopxException e) {
            // a bounded lock wait under load: retry, as a host does
            assertThat(e.kind().wireName()).isIn("state_conflict", "state_locked");
          }
        }
        long generation = parent.generation();
        for (HostJvm h : listeners) {
          latencies[n++] = Math.max(0, h.awaitChange(generation).nanoTime() - committed);
        }
      }
      writer.send("stop");
      Map<String, Integer> writes = new TreeMap<>();
      for (String line = writer.reply(); !line.equals("stopped"); line = writer.reply()) {
        String[] w = line.split(" ");
        if (w[0].equals("failed")) {
          assertThat(w[1]).as(line).isEqualTo("io_failed");
        }
        writes.merge(w[0].equals("ok") ? "ok" : w[1], 1, Integer::sum);
      }
      List<Long> millis = new ArrayList<>();
      for (long l : latencies) {
        millis.add(l / 1_000_000);
      }
      Fleet.report(
          "notification-drop",
          String.format(
              "notification-drop: %d drops of every client connection under a writer host JVM"
                  + " (%s), %d listening host JVMs, poll interval %d ms: commit -> listener %s",
              DROPS, writes, LISTENERS, POLL_MILLIS, Fleet.percentiles(latencies)));
      assertThat(millis).allMatch(ms -> ms < BOUND_MILLIS, "within " + BOUND_MILLIS + " ms");
    }
  }
}
