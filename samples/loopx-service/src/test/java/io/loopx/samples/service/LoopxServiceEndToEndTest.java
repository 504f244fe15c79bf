package io.loopx.samples.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The service on a random loopback port with the file store, driven over HTTP: the sample's
 * extension (installed through the library, as an operator would) answers from warm Python workers;
 * health, readiness and liveness are UP; Prometheus shows the LoopX meters; the {@code loopx}
 * endpoint lists the extension and its pool; refusals are typed JSON with their status; a disable
 * committed through the library refuses the next request and retires the workers.
 */
@SpringBootTest(
    classes = LoopxServiceApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LoopxServiceEndToEndTest {
  static final ExtensionId WORD_COUNT = ExtensionId.of("word-count");

  @DynamicPropertySource
  static void runtimeRoot(DynamicPropertyRegistry registry) throws Exception {
    Path root = Files.createTempDirectory("loopx-service-test-");
    registry.add("loopx.runtime-root", root::toString);
  }

  @LocalServerPort int port;
  @Autowired Loopx loopx;
  @Autowired Environment environment;

  @Test
  void dispatchesToWarmWorkersShowsStateAndRefusesOnceDisabled() throws Exception {
    assertThat(environment.getProperty("server.address")).isEqualTo("127.0.0.1");
    assertThat(loopx.install(LoadedManifest.load(Client.extensionManifest()), Mode.EXECUTE).ok())
        .isTrue();
    Client client = new Client(port);

    Set<Long> pids = new HashSet<>();
    for (int i = 0; i < 5; i++) {
      Client.Answer answer =
          client.post("/capabilities/word-count", Client.countRequest("hello warm\nworld"));
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      JsonNode result = answer.json();
      assertThat(result.get("ok").asBoolean()).isTrue();
      assertThat(result.get("words").asInt()).isEqualTo(3);
      assertThat(result.get("lines").asInt()).isEqualTo(2);
      assertThat(result.get("characters").asInt()).isEqualTo(16);
      pids.add(result.get("worker_pid").asLong());
    }
    assertThat(pids).allSatisfy(pid -> assertThat(Client.alive(pid)).isTrue());
    assertThat(loopx.workerPools())
        .singleElement()
        .satisfies(pool -> assertThat(pool.maxProcesses()).isEqualTo(4));

    // typed refusals
    Client.Answer unknown = client.post("/capabilities/no-such", Client.countRequest("x"));
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.kind()).isEqualTo("resolution_failed");
    Client.Answer notJson = client.post("/capabilities/word-count", "{not json");
    assertThat(notJson.status()).as(notJson.body()).isEqualTo(400);
    assertThat(notJson.kind()).isEqualTo("request_invalid");
    Client.Answer providerRefused =
        client.post(
            "/capabilities/word-count",
            "{\"schema_version\":\"word_count_request_v0\",\"text\":\"x\",\"shout\":true}");
    assertThat(providerRefused.status()).as(providerRefused.body()).isEqualTo(502);
    assertThat(providerRefused.kind()).isEqualTo("provider_failed");
    assertThat(providerRefused.json().at("/provider_result/error").asString())
        .isEqualTo("request has unknown keys: `shout`");

    // health: UP, the loopx indicator in readiness only
    Client.Answer health = client.get("/actuator/health");
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.json().get("status").asString()).isEqualTo("UP");
    Client.Answer readiness = client.get("/actuator/health/readiness");
    assertThat(readiness.status()).isEqualTo(200);
    assertThat(readiness.json().at("/components/loopx/status").asString())
        .as(readiness.body())
        .isEqualTo("UP");
    Client.Answer liveness = client.get("/actuator/health/liveness");
    assertThat(liveness.status()).isEqualTo(200);
    assertThat(liveness.json().path("components").has("loopx")).isFalse();

    // Prometheus: the dispatch timer and the worker gauges
    Client.Answer prometheus = client.get("/actuator/prometheus");
    assertThat(prometheus.status()).isEqualTo(200);
    assertThat(prometheus.body())
        .containsPattern("loopx_dispatch_seconds_count\\{[^}]*capability=\"word-count\"")
        .containsPattern("loopx_workers_processes\\{[^}]*extension=\"word-count\"");

    // the loopx endpoint: the extension and its pool
    JsonNode report = client.get("/actuator/loopx").json();
    assertThat(report.at("/extensions/0/id").asString()).isEqualTo("word-count");
    assertThat(report.at("/extensions/0/enabled").asBoolean()).isTrue();
    assertThat(report.at("/workerPools/0/maxProcesses").asInt()).isEqualTo(4);

    // a disable committed through the library: the next request is refused, the workers retired
    assertThat(loopx.disable(WORD_COUNT, Mode.EXECUTE).ok()).isTrue();
    Client.Answer refused =
        client.post("/capabilities/word-count", Client.countRequest("after the disable"));
    assertThat(refused.status()).as(refused.body()).isEqualTo(409);
    assertThat(refused.kind()).isEqualTo("resolution_failed");
    assertThat(Client.eventually(() -> pids.stream().noneMatch(Client::alive)))
        .as("workers %s retired", pids)
        .isTrue();
    assertThat(loopx.workerPools()).isEmpty();
  }
}
