package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.state.ActivationState;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server stopped ({@code pg_ctl stop -m immediate}, as a crash) while host JVMs loop over
 * counting operations on two entries at once, then started again. Each operation either committed
 * whole or failed typed {@code io_failed} (never half-written: both entries of a host always hold
 * the same counter, between its committed operations and those plus its failed ones); after the
 * restart every host writes again and its change listener reports again, without a host restart.
 */
class ServerStopTest {
  static final int HOSTS = 3;
  static final int STOPS = Integer.getInteger("loopx.reliability.serverStops", 1);
  static final long POLL_MILLIS = 200;

  @TempDir Path tmp;

  @Test
  void everyOperationCommitsWholeOrFailsTypedAndHostsRecover() throws Exception {
    EmbeddedPostgres pg = EmbeddedPostgres.shared();
    Map<String, Integer> failures = new TreeMap<>();
    List<Long> recoveries = new ArrayList<>();
    int committedTotal = 0;
    try (Fleet fleet = new Fleet()) {
      List<HostJvm> hosts = fleet.start(tmp, HOSTS, POLL_MILLIS);
      int[] committed = new int[HOSTS];
      int[] failed = new int[HOSTS];
      for (int s = 0; s < STOPS; s++) {
        for (int h = 0; h < HOSTS; h++) {
          hosts.get(h).send("loop host" + h + "-a host" + h + "-b");
        }
        // every host is in the middle of its operations: a few committed
        for (int h = 0; h < HOSTS; h++) {
          for (int i = 0; i < 3; i++) {
            tally(hosts.get(h).reply(), h, committed, failed, failures);
          }
        }
        pg.stop();
        // every host sees the server gone (a failed operation) before it comes back
        for (int h = 0; h < HOSTS; h++) {
          while (!tally(hosts.get(h).reply(), h, committed, failed, failures).equals("failed")) {
            // operations that committed before the stop
          }
        }
        pg.startServer();
        long restarted = System.nanoTime();
        // every host commits again without a restart of its own
        for (int h = 0; h < HOSTS; h++) {
          while (!tally(hosts.get(h).reply(), h, committed, failed, failures).equals("ok")) {
            // failures until its first connection to the restarted server
          }
        }
        for (HostJvm h : hosts) {
          h.send("stop");
        }
        for (int h = 0; h < HOSTS; h++) {
          for (String line = hosts.get(h).reply();
              !line.equals("stopped");
              line = hosts.get(h).reply()) {
            tally(line, h, committed, failed, failures);
          }
        }
        // and every host's listener reports a commit made after the restart
        long generation = PostgresActivationStore.of(fleet.dataSource).generation();
        for (HostJvm h : hosts) {
          recoveries.add((h.awaitChange(generation).nanoTime() - restarted) / 1_000_000);
        }
      }
      ActivationState state = PostgresActivationStore.of(fleet.dataSource).read();
      for (int h = 0; h < HOSTS; h++) {
        int a = HostMain.counter(state.installed(ExtensionId.of("host" + h + "-a")));
        int b = HostMain.counter(state.installed(ExtensionId.of("host" + h + "-b")));
        assertThat(b).as("host %d: both entries of each write", h).isEqualTo(a);
        assertThat(a).as("host %d", h).isBetween(committed[h], committed[h] + failed[h]);
        committedTotal += committed[h];
      }
      Fleet.report(
          "server-stop",
          String.format(
              "server-stop: %d stop(s) of the server under %d looping host JVMs: %d operations"
                  + " committed whole, failures %s (io_failed only), 0 half-written; listeners"
                  + " reported a post-restart commit %s ms after the server was ready again",
              STOPS, HOSTS, committedTotal, failures, recoveries));
    }
  }

  /** Counts one reply line; returns {@code ok} or {@code failed}. */
  private static String tally(
      String line, int host, int[] committed, int[] failed, Map<String, Integer> failures) {
    String[] w = line.split(" ");
    if (w[0].equals("ok")) {
      committed[host]++;
      return "ok";
    }
    assertThat(w[0]).as(line).isEqualTo("failed");
    assertThat(w[1]).as(line).isEqualTo("io_failed");
    failed[host]++;
    failures.merge(w[1], 1, Integer::sum);
    return "failed";
  }
}
