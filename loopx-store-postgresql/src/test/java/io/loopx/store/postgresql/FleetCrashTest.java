package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.state.ActivationState;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host JVM SIGKILLed in the middle of its writes: the host loops over one counting operation on
 * two entries at once ({@link HostMain#count}); the test kills it after a random number of
 * committed operations, so the kill lands at a random point, and every other time once the server
 * shows the host's write transaction holding a transaction id (it wrote a row and has not
 * committed), so the kill lands inside the transaction. The state is then exactly before or after
 * the operation in flight (both entries at the last reported counter, or both one above), and the
 * next write by another host takes the lock at once.
 */
class FleetCrashTest {
  static final int KILLS = Integer.getInteger("loopx.reliability.fleetKills", 5);
  static final long SEED = Long.getLong("loopx.reliability.seed", System.nanoTime());

  @TempDir Path tmp;

  @Test
  void aKilledHostLeavesTheStateBeforeOrAfterItsWrite() throws Exception {
    Random random = new Random(SEED);
    int before = 0;
    int after = 0;
    int halfWritten = 0;
    try (Fleet fleet = new Fleet()) {
      PostgresActivationStore other =
          PostgresActivationStore.builder(fleet.dataSource)
              .lockTimeout(Duration.ofSeconds(10))
              .build();
      int counter = 0;
      long started = System.nanoTime();
      HostJvm next = fleet.launch(tmp, 1000);
      for (int k = 0; k < KILLS; k++) {
        HostJvm host = next.awaitReady();
        // the next host's JVM starts while this one runs (start-up is most of the time)
        next = k + 1 < KILLS ? fleet.launch(tmp, 1000) : null;
        host.send("loop crash-a crash-b");
        int wait = 1 + random.nextInt(8);
        int lastReported = counter;
        for (int i = 0; i < wait; i++) {
          lastReported = okCounter(host.reply());
        }
        if (k % 2 == 0) {
          // every other kill lands inside a write: after its first row, before its commit
          awaitHalfWritten(fleet.dataSource);
          halfWritten++;
        }
        host.kill();
        for (String line = host.reply(); !line.equals("eof"); line = host.reply()) {
          lastReported = okCounter(line);
        }
        ActivationState state = other.read();
        int a = HostMain.counter(state.installed(ExtensionId.of("crash-a")));
        int b = HostMain.counter(state.installed(ExtensionId.of("crash-b")));
        assertThat(b).as("both entries of one write, kill %d", k).isEqualTo(a);
        assertThat(a).as("kill %d", k).isIn(lastReported, lastReported + 1);
        if (a == lastReported) {
          before++;
        } else {
          after++;
        }
        // the dead host's transaction is gone: another host writes at once (no stuck lock)
        other.update(
            "count",
            HostMain.count(state, List.of(ExtensionId.of("crash-a"), ExtensionId.of("crash-b"))));
        counter = a + 1;
      }
      Fleet.report(
          "fleet-crash",
          String.format(
              "fleet-crash: %d host JVMs SIGKILLed mid-write (seed %d; %d of them seen inside a"
                  + " write transaction that had written a row): state exactly before the write"
                  + " in flight %d times, exactly after it %d times, never half-written; the next"
                  + " write never blocked; %.1f s",
              KILLS, SEED, halfWritten, before, after, (System.nanoTime() - started) / 1e9));
    }
  }

  /**
   * Returns once another backend of the database holds a transaction id: a write transaction that
   * has written a row and not yet ended (observed in {@code pg_stat_activity}, polled).
   */
  private static void awaitHalfWritten(DataSource dataSource) throws Exception {
    long deadline = System.nanoTime() + HostJvm.LINE_TIMEOUT.toNanos();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND pid <> pg_backend_pid() AND backend_xid IS NOT NULL")) {
      while (System.nanoTime() < deadline) {
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (rs.getInt(1) > 0) {
            return;
          }
        }
      }
    }
    throw new AssertionError("no write transaction seen");
  }

  private static int okCounter(String line) {
    String[] w = line.split(" ");
    assertThat(w[0]).as(line).isEqualTo("ok");
    return Integer.parseInt(w[1]);
  }
}
