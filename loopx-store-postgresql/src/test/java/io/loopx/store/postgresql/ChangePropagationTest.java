package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Change propagation between hosts: host A commits, every other store's change listener ({@code
 * LISTEN}/{@code NOTIFY}, each on its own connection) reports the new generation, and the next read
 * of any store sees the change. Latencies go to {@code target/propagation.txt}.
 */
class ChangePropagationTest {
  static final int HOSTS = 4;
  static final int COMMITS = Integer.getInteger("loopx.propagation.commits", 20);

  DataSource dataSource;
  final List<PostgresActivationStore> open = new ArrayList<>();
  final AtomicReference<CountDownLatch> seen = new AtomicReference<>(new CountDownLatch(0));
  final AtomicLong awaited = new AtomicLong(Long.MAX_VALUE);

  @BeforeEach
  void schema() {
    dataSource = EmbeddedPostgres.shared().freshSchema();
    PostgresActivationStore.of(dataSource).migrate();
  }

  @AfterEach
  void close() {
    open.forEach(PostgresActivationStore::close);
  }

  PostgresActivationStore listening(long[] seenAt, int host, Duration poll) {
    PostgresActivationStore s =
        PostgresActivationStore.builder(dataSource)
            .pollInterval(poll)
            .onChange(
                generation -> {
                  if (generation >= awaited.get()) {
                    long now = System.nanoTime();
                    synchronized (seenAt) {
                      if (seenAt[host] == 0) {
                        seenAt[host] = now;
                        seen.get().countDown();
                      }
                    }
                  }
                })
            .build();
    open.add(s);
    return s;
  }

  @Test
  void everyHostLearnsOfACommitAndItsNextReadSeesIt() throws Exception {
    PostgresActivationStore a = PostgresActivationStore.of(dataSource);
    long[] seenAt = new long[HOSTS];
    List<PostgresActivationStore> hosts = new ArrayList<>();
    for (int h = 0; h < HOSTS; h++) {
      hosts.add(listening(seenAt, h, Duration.ofSeconds(1)));
    }
    ExtensionRecord r =
        a.update("install", List.of(Records.install("alpha-ext")))
            .installed(ActivationStoreContract.A);
    awaitListening(hosts);
    long[] latencies = new long[COMMITS * HOSTS];
    for (int i = 0; i < COMMITS; i++) {
      synchronized (seenAt) {
        Arrays.fill(seenAt, 0);
      }
      CountDownLatch latch = new CountDownLatch(HOSTS);
      seen.set(latch);
      awaited.set(a.generation() + 1);
      r = a.update("enable", List.of(Records.toggle(r))).installed(ActivationStoreContract.A);
      long committed = System.nanoTime();
      assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
      for (int h = 0; h < HOSTS; h++) {
        latencies[i * HOSTS + h] = Math.max(0, seenAt[h] - committed);
        assertThat(hosts.get(h).read().installed(ActivationStoreContract.A)).isEqualTo(r);
      }
    }
    Arrays.sort(latencies);
    String summary =
        String.format(
            "commit on A -> change listener of B (%d listening stores, %d commits, one JVM, one"
                + " server): p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms%n",
            HOSTS,
            COMMITS,
            ms(latencies, 0.50),
            ms(latencies, 0.95),
            ms(latencies, 0.99),
            latencies[latencies.length - 1] / 1e6);
    Files.writeString(Path.of("target", "propagation.txt"), summary);
    System.out.print(summary);
    assertThat(ms(latencies, 0.99)).isLessThan(200.0);
  }

  @Test
  void aLostNotificationConnectionStillReportsWithinThePollingBound() throws Exception {
    long[] seenAt = new long[1];
    PostgresActivationStore b = listening(seenAt, 0, Duration.ofMillis(200));
    PostgresActivationStore a = PostgresActivationStore.of(dataSource);
    ExtensionRecord r =
        a.update("install", List.of(Records.install("alpha-ext")))
            .installed(ActivationStoreContract.A);
    awaitListening(List.of(b));
    EmbeddedPostgres.shared()
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                + " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
    CountDownLatch latch = new CountDownLatch(1);
    seen.set(latch);
    awaited.set(a.generation() + 1);
    a.update("disable", List.of(Records.toggle(r)));
    assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
  }

  private static void awaitListening(List<PostgresActivationStore> stores)
      throws InterruptedException {
    for (PostgresActivationStore s : stores) {
      assertThat(s.awaitListening(Duration.ofSeconds(30))).isTrue();
    }
  }

  private static double ms(long[] sorted, double q) {
    return sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] / 1e6;
  }
}
