package io.loopx.samples.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.store.postgresql.PostgresActivationStore;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two instances of the service (two Spring applications, each with its own {@code Loopx} and worker
 * pools, on random loopback ports) on one PostgreSQL store (the real server the store module's
 * tests start, a fresh schema): an operator's {@code Loopx} on the same store installs the
 * extension and both answer from their own warm workers; the operator's disable, committed through
 * the library and never through a service, makes the very next request of each instance a typed
 * refusal, and retires the workers of both (their pids leave {@code /proc}, their pools empty).
 */
class LoopxServiceFleetTest {
  private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

  @AfterEach
  void stop() {
    instances.forEach(ConfigurableApplicationContext::close);
  }

  private Client start(String jdbcUrl) {
    ConfigurableApplicationContext context =
        new SpringApplicationBuilder(LoopxServiceApplication.class)
            .profiles("postgresql")
            .run("--server.port=0", "--spring.datasource.url=" + jdbcUrl);
    instances.add(context);
    return new Client(
        Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port")));
  }

  @Test
  void aDisableCommittedOnTheSharedStoreRefusesOnBothInstancesAndRetiresTheirWorkers()
      throws Exception {
    EmbeddedPostgres server = EmbeddedPostgres.shared();
    String schema = server.newSchema();
    Client first = start(server.url("postgres") + "&currentSchema=" + schema);
    Client second = start(server.url("postgres") + "&currentSchema=" + schema);

    try (PostgresActivationStore store =
            PostgresActivationStore.of(server.dataSource("postgres", schema));
        Loopx operator =
            Loopx.builder()
                .activationStore(store)
                .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
                .build()) {
      assertThat(
              operator.install(LoadedManifest.load(Client.extensionManifest()), Mode.EXECUTE).ok())
          .isTrue();

      Set<Long> pids = new HashSet<>();
      for (Client instance : List.of(first, second)) {
        Set<Long> own = new HashSet<>();
        for (int i = 0; i < 4; i++) {
          Client.Answer answer =
              instance.post("/capabilities/word-count", Client.countRequest("one fleet"));
          assertThat(answer.status()).as(answer.body()).isEqualTo(200);
          own.add(answer.json().get("worker_pid").asLong());
        }
        assertThat(instance.get("/actuator/loopx").json().at("/workerPools/0/processes").asInt())
            .isPositive();
        for (long pid : own) {
          assertThat(pids.add(pid)).as("each instance has its own workers").isTrue();
        }
      }
      assertThat(pids).allSatisfy(pid -> assertThat(Client.alive(pid)).isTrue());

      assertThat(operator.disable(ExtensionId.of("word-count"), Mode.EXECUTE).ok()).isTrue();

      for (Client instance : List.of(first, second)) {
        Client.Answer refused =
            instance.post("/capabilities/word-count", Client.countRequest("after the disable"));
        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(refused.kind()).isIn("resolution_failed", "extension_disabled");
        System.out.println("refused after the disable: " + refused.body());
      }
      assertThat(Client.eventually(() -> pids.stream().noneMatch(Client::alive)))
          .as("workers %s retired", pids)
          .isTrue();
      for (Client instance : List.of(first, second)) {
        assertThat(instance.get("/actuator/loopx").json().get("workerPools").size()).isZero();
        assertThat(
                instance.get("/actuator/loopx").json().at("/extensions/0/enabled").asBoolean(true))
            .isFalse();
      }
    }
  }
}
