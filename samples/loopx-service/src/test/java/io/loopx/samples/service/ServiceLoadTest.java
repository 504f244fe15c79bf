package io.loopx.samples.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The service under load (reliability profile only: it runs when {@code
 * -Dloopx.reliability.serviceLoadRequests} is set, which {@code -Preliability} does): 1, 8 and 32
 * concurrent HTTP clients on loopback, each level bounded by a count of requests and a time budget,
 * against the sample's extension (a pool of at most 4 warm Python workers, 2 requests each, 32
 * waiting). At 1 and 8 clients every request must succeed; at 32 at least 95 % must, and every
 * other answer must be a typed {@code provider_busy} (503). Throughput, p50 and p99 per level are
 * printed and written to {@code target/reliability/service-load.txt}.
 */
@SpringBootTest(
    classes = LoopxServiceApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@EnabledIfSystemProperty(named = "loopx.reliability.serviceLoadRequests", matches = "[0-9]+")
class ServiceLoadTest {
  static final int REQUESTS = Integer.getInteger("loopx.reliability.serviceLoadRequests", 0);
  static final Duration BUDGET = Duration.ofSeconds(60);
  static final int[] CLIENTS = {1, 8, 32};

  @DynamicPropertySource
  static void runtimeRoot(DynamicPropertyRegistry registry) throws Exception {
    Path root = Files.createTempDirectory("loopx-service-load-");
    registry.add("loopx.runtime-root", root::toString);
  }

  @LocalServerPort int port;
  @Autowired Loopx loopx;

  /** What one level measured. */
  record Level(
      int clients,
      int requests,
      int succeeded,
      Map<String, Integer> others,
      double seconds,
      long[] nanos) {
    double throughput() {
      return requests / seconds;
    }

    double percentileMillis(double p) {
      long[] sorted = nanos.clone();
      Arrays.sort(sorted);
      int index = (int) Math.ceil(p * sorted.length) - 1;
      return sorted[Math.max(0, index)] / 1e6;
    }

    String line() {
      return String.format(
          Locale.ROOT,
          "clients %2d: %5d requests in %6.2f s, %7.1f requests/s, p50 %6.2f ms, p99 %7.2f ms,"
              + " succeeded %d, other %s",
          clients,
          requests,
          seconds,
          throughput(),
          percentileMillis(0.50),
          percentileMillis(0.99),
          succeeded,
          others);
    }
  }

  @Test
  void oneEightAndThirtyTwoClients() throws Exception {
    assertThat(loopx.install(LoadedManifest.load(Client.extensionManifest()), Mode.EXECUTE).ok())
        .isTrue();
    Client client = new Client(port);
    run(client, 8, 64); // warm-up: the pool's workers started
    List<Level> levels = new ArrayList<>();
    for (int clients : CLIENTS) {
      levels.add(run(client, clients, REQUESTS));
    }

    StringBuilder report =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "service load: POST /capabilities/word-count on loopback, up to %d requests or %d s"
                    + " per level, pool max_processes 4, max_in_flight 2%n",
                REQUESTS,
                BUDGET.toSeconds()));
    levels.forEach(level -> report.append(level.line()).append(System.lineSeparator()));
    System.out.print(report);
    Path out = Path.of("target", "reliability");
    Files.createDirectories(out);
    Files.writeString(out.resolve("service-load.txt"), report.toString());

    for (Level level : levels) {
      assertThat(level.requests()).as(level.line()).isPositive();
      if (level.clients() < 32) {
        assertThat(level.succeeded()).as(level.line()).isEqualTo(level.requests());
      } else {
        assertThat(level.succeeded())
            .as(level.line())
            .isGreaterThanOrEqualTo((int) Math.ceil(0.95 * level.requests()));
        assertThat(level.others().keySet()).as(level.line()).isSubsetOf("503 provider_busy");
      }
    }
  }

  private static Level run(Client client, int clients, int requests) throws Exception {
    String body = Client.countRequest("the quick brown fox jumps over the lazy dog");
    AtomicInteger next = new AtomicInteger();
    AtomicInteger succeeded = new AtomicInteger();
    AtomicLongArray nanos = new AtomicLongArray(requests);
    Map<String, Integer> others = new ConcurrentHashMap<>();
    long deadline = System.nanoTime() + BUDGET.toNanos();
    ExecutorService threads = Executors.newFixedThreadPool(clients);
    long start = System.nanoTime();
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        done.add(
            threads.submit(
                () -> {
                  int i;
                  while (System.nanoTime() < deadline && (i = next.getAndIncrement()) < requests) {
                    long t0 = System.nanoTime();
                    Client.Answer answer = client.post("/capabilities/word-count", body);
                    nanos.set(i, System.nanoTime() - t0);
                    if (answer.status() == 200) {
                      succeeded.incrementAndGet();
                    } else {
                      others.merge(answer.status() + " " + answer.kind(), 1, Integer::sum);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      threads.shutdownNow();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    int sent = Math.min(next.get(), requests);
    long[] measured = new long[sent];
    for (int i = 0; i < sent; i++) {
      measured[i] = nanos.get(i);
    }
    return new Level(clients, sent, succeeded.get(), new TreeMap<>(others), seconds, measured);
  }
}
