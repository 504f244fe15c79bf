package io.loopx.store.postgresql;

import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;

/**
 * A fresh migrated schema for a fleet of {@link HostJvm}s: its JDBC URL (for the children) and a
 * data source (for the test itself), and the fleet tests' tallies.
 */
final class Fleet implements AutoCloseable {
  final String url;
  final DataSource dataSource;
  final List<HostJvm> hosts = new ArrayList<>();

  Fleet() {
    EmbeddedPostgres pg = EmbeddedPostgres.shared();
    String schema = pg.newSchema();
    this.url = pg.url("postgres") + "&currentSchema=" + schema;
    this.dataSource = pg.dataSource("postgres", schema);
    PostgresActivationStore.of(dataSource).migrate();
  }

  /** Starts {@code count} hosts at once and waits until every one listens. */
  List<HostJvm> start(Path workDir, int count, long pollMillis) throws InterruptedException {
    List<HostJvm> started = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      HostJvm h = HostJvm.start(workDir, "host-" + (hosts.size() + i), url, pollMillis);
      started.add(h);
    }
    hosts.addAll(started);
    for (HostJvm h : started) {
      h.awaitReady();
    }
    return started;
  }

  /** Starts one host without waiting for it to listen ({@link HostJvm#awaitReady}). */
  HostJvm launch(Path workDir, long pollMillis) {
    HostJvm h = HostJvm.start(workDir, "host-" + hosts.size(), url, pollMillis);
    hosts.add(h);
    return h;
  }

  @Override
  public void close() throws InterruptedException {
    for (HostJvm h : hosts) {
      h.close();
    }
  }

  /** The {@code q} quantile (0..1) of {@code sorted} nanoseconds, in milliseconds. */
  static double ms(long[] sorted, double q) {
    return sorted[(int) Math.max(0, Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1))]
        / 1e6;
  }

  /** Returns {@code p50 …, p95 …, p99 …, max …} of the latencies in nanoseconds. */
  static String percentiles(long[] latencies) {
    long[] sorted = latencies.clone();
    Arrays.sort(sorted);
    return String.format(
        "p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms (%d samples)",
        ms(sorted, 0.50),
        ms(sorted, 0.95),
        ms(sorted, 0.99),
        sorted[sorted.length - 1] / 1e6,
        sorted.length);
  }

  /** Prints {@code summary} and writes it to {@code target/reliability/<name>.txt}. */
  static void report(String name, String summary) {
    System.out.println(summary);
    try {
      Path dir = Path.of("target", "reliability");
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(name + ".txt"), summary + System.lineSeparator());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
