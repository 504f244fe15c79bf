package io.loopx.samples.service;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.WorkerPoolSnapshot;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A full pool over HTTP: a {@code word-count} extension whose one worker ({@code max_processes =
 * 1}, {@code max_in_flight = 1}, so 4 requests may wait) holds its slot until the test creates a
 * file; with 1 request in flight and 4 queued (read from {@link Loopx#workerPools()}), the next
 * request is refused at once with 503, {@code Retry-After: 1} and the kind {@code provider_busy},
 * counted by {@code loopx_refusals_total}; once released, the 5 held requests are answered 200.
 */
@SpringBootTest(
    classes = LoopxServiceApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ProviderBusyTest {
  static Path root;

  @DynamicPropertySource
  static void runtimeRoot(DynamicPropertyRegistry registry) throws Exception {
    root = Files.createTempDirectory("loopx-service-busy-");
    registry.add("loopx.runtime-root", root::toString);
  }

  @LocalServerPort int port;
  @Autowired Loopx loopx;

  private static Path writeHeldExtension(Path dir) throws Exception {
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/provider");
    try (InputStream in =
        Objects.requireNonNull(
            ProviderBusyTest.class.getResourceAsStream("held-worker.py"), "held-worker.py")) {
      Files.write(script, in.readAllBytes());
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    // the sample's manifest with a pool of one worker and one slot
    String manifest =
        Files.readString(Client.extensionManifest(), UTF_8)
            .replace("max_processes = 4", "max_processes = 1")
            .replace("max_in_flight = 2", "max_in_flight = 1");
    Files.writeString(dir.resolve("extension.toml"), manifest);
    return dir;
  }

  @Test
  void aFullPoolIsATyped503WithRetryAfter() throws Exception {
    Path dir = writeHeldExtension(root.resolve("held-word-count"));
    assertThat(loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE).ok())
        .isTrue();
    Client client = new Client(port);

    ExecutorService callers = Executors.newFixedThreadPool(5);
    try {
      List<CompletableFuture<Client.Answer>> held = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        held.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return client.post("/capabilities/word-count", "{\"until\":\"go\"}");
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                },
                callers));
      }
      assertThat(
              Client.eventually(
                  () -> {
                    List<WorkerPoolSnapshot> pools = loopx.workerPools();
                    return pools.size() == 1
                        && pools.get(0).inFlight() == 1
                        && pools.get(0).queued() == 4;
                  }))
          .as("1 in flight, 4 queued: %s", loopx.workerPools())
          .isTrue();

      Client.Answer busy = client.post("/capabilities/word-count", "{\"until\":\"go\"}");
      assertThat(busy.status()).as(busy.body()).isEqualTo(503);
      assertThat(busy.kind()).isEqualTo("provider_busy");
      assertThat(busy.retryAfter()).isEqualTo("1");
      assertThat(client.get("/actuator/prometheus").body())
          .containsPattern("loopx_refusals_total\\{[^}]*kind=\"provider_busy\"[^}]*\\} 1\\.0");

      Files.createFile(dir.resolve("go"));
      for (CompletableFuture<Client.Answer> answer : held) {
        assertThat(answer.get(Client.SAFETY.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(200);
      }
    } finally {
      if (!Files.exists(dir.resolve("go"))) {
        Files.createFile(dir.resolve("go")); // never leave a worker held
      }
      callers.shutdownNow();
    }
  }
}
