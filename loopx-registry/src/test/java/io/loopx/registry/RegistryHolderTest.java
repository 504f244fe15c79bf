package io.loopx.registry;

import static io.loopx.registry.Fixtures.cap;
import static io.loopx.registry.Fixtures.contribution;
import static io.loopx.registry.Fixtures.manifest;
import static io.loopx.registry.Fixtures.pid;
import static io.loopx.registry.Fixtures.publicCapability;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ProviderId;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Atomic publication of generations; readers keep a consistent view while generations swap. */
class RegistryHolderTest {
  private static final long SAFETY_TIMEOUT_SECONDS = 60;

  /** Generation {@code k}: every value that a reader can observe carries the number {@code k}. */
  private static CapabilityRegistry generation(long k) {
    return CapabilityRegistry.assembly("1.0." + k)
        .addBuiltin(
            contribution(
                "core",
                "loopx-core",
                ctx -> {
                  ctx.addCapability(
                      new io.loopx.api.manifest.ProvidedCapability(
                          cap("alpha"),
                          io.loopx.api.KindToken.of("projection_sink"),
                          "title " + k,
                          "available",
                          io.loopx.api.manifest.Visibility.PUBLIC,
                          "v",
                          "n",
                          java.util.Optional.of("anchor"),
                          java.util.Optional.of("loopx alpha"),
                          java.util.Map.of()));
                  ctx.addCapability(publicCapability("marker-" + k));
                }))
        .install(Fixtures.ready(manifest("ext").version(k + ".0.0").build()))
        .seal();
  }

  /** Reads many values from one generation object and checks they all carry its number. */
  private static void assertConsistent(RegistryGeneration g) {
    long k = g.number();
    CapabilityRegistry r = g.registry();
    assertThat(r.libraryVersion()).isEqualTo("1.0." + k);
    assertThat(r.provider(ProviderId.LOOPX_CORE).orElseThrow().version()).isEqualTo("1.0." + k);
    assertThat(r.capability(cap("alpha")).orElseThrow().descriptor().title())
        .isEqualTo("title " + k);
    assertThat(r.capability(cap("marker-" + k))).isPresent();
    assertThat(r.capabilities(CatalogScope.PUBLIC)).hasSize(2);
    assertThat(r.provider(pid("ext")).orElseThrow().version()).isEqualTo(k + ".0.0");
    JsonNode catalog = r.catalogJson(CatalogScope.PUBLIC);
    assertThat(catalog.get("capabilities").get(0).get("title").asString()).isEqualTo("title " + k);
    assertThat(catalog.get("capabilities").get(1).get("id").asString()).isEqualTo("marker-" + k);
    assertThat(catalog.get("providers").get(1).get("version").asString()).isEqualTo(k + ".0.0");
  }

  @Test
  void publicationNumbersGenerationsAndCompareAndPublishRejectsStaleExpectations() {
    RegistryHolder holder = RegistryHolder.of(generation(1));
    RegistryGeneration first = holder.current();
    assertThat(first.number()).isEqualTo(1);

    RegistryGeneration second = holder.publishIfCurrent(first, generation(2)).orElseThrow();
    assertThat(second.number()).isEqualTo(2);
    assertThat(holder.current()).isSameAs(second);
    assertThat(holder.publishIfCurrent(first, generation(99))).isEmpty();
    assertThat(holder.current()).isSameAs(second);
    assertThat(holder.publish(generation(3)).number()).isEqualTo(3);
    assertConsistent(holder.current());
  }

  @Test
  void readerHoldingAGenerationKeepsItsViewAcrossPublication() throws Exception {
    RegistryHolder holder = RegistryHolder.of(generation(1));
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch published = new CountDownLatch(1);
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try {
                RegistryGeneration g = holder.current();
                assertConsistent(g);
                holding.countDown();
                assertThat(published.await(SAFETY_TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                // the holder moved on; the generation this reader holds did not
                assertThat(holder.current().number()).isEqualTo(2);
                assertThat(g.number()).isEqualTo(1);
                assertConsistent(g);
              } catch (Throwable t) {
                failures.add(t);
              }
            });
    reader.start();
    assertThat(holding.await(SAFETY_TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    holder.publish(generation(2));
    published.countDown();
    reader.join(TimeUnit.SECONDS.toMillis(SAFETY_TIMEOUT_SECONDS));
    assertThat(reader.isAlive()).isFalse();
    assertThat(failures).isEmpty();
  }

  @Test
  void concurrentReadersNeverObserveAMixOfGenerations() throws Exception {
    int generations = 150;
    int readers = 3;
    List<CapabilityRegistry> prepared = new ArrayList<>();
    for (int k = 1; k <= generations; k++) {
      prepared.add(generation(k));
    }
    RegistryHolder holder = RegistryHolder.of(prepared.get(0));
    CountDownLatch start = new CountDownLatch(1);
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    AtomicLong reads = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < readers; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  assertThat(start.await(SAFETY_TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                  long last = 0;
                  // runs until it has seen the final generation, which the writer always reaches
                  while (last < generations && failures.isEmpty()) {
                    RegistryGeneration g = holder.current();
                    assertThat(g.number()).isGreaterThanOrEqualTo(last);
                    assertConsistent(g);
                    last = g.number();
                    reads.incrementAndGet();
                  }
                } catch (Throwable x) {
                  failures.add(x);
                }
              });
      t.start();
      threads.add(t);
    }
    Thread writer =
        new Thread(
            () -> {
              try {
                assertThat(start.await(SAFETY_TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                for (int k = 2; k <= generations; k++) {
                  RegistryGeneration before = holder.current();
                  RegistryGeneration after =
                      k % 2 == 0
                          ? holder.publish(prepared.get(k - 1))
                          : holder.publishIfCurrent(before, prepared.get(k - 1)).orElseThrow();
                  assertThat(after.number()).isEqualTo(k);
                }
              } catch (Throwable x) {
                failures.add(x);
              }
            });
    writer.start();
    start.countDown();
    writer.join(TimeUnit.SECONDS.toMillis(SAFETY_TIMEOUT_SECONDS));
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(SAFETY_TIMEOUT_SECONDS));
      assertThat(t.isAlive()).isFalse();
    }
    assertThat(failures).isEmpty();
    assertThat(holder.current().number()).isEqualTo(generations);
    assertThat(reads.get()).isGreaterThanOrEqualTo(readers);
  }
}
