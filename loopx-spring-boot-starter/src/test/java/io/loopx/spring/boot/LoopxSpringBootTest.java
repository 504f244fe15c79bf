package io.loopx.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.loopx.runtime.Loopx;
import io.loopx.store.postgresql.PostgresActivationStore;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A whole Spring Boot application ({@code @EnableAutoConfiguration}, every auto-configuration on
 * the class path) on the real PostgreSQL server the store module's tests start: Spring Boot's
 * pooled {@code DataSource} (HikariCP, from {@code spring.datasource.url}), the PostgreSQL store
 * migrated at startup, and the readiness group following an extension's doctor readiness while
 * liveness stays UP.
 */
@SpringBootTest(
    classes = LoopxSpringBootTest.Application.class,
    properties = {
      "loopx.store.type=postgresql",
      "loopx.store.postgresql.migrate=true",
      "spring.datasource.hikari.maximum-pool-size=4"
    })
class LoopxSpringBootTest {

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Application {}

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    EmbeddedPostgres server = EmbeddedPostgres.shared();
    String schema = server.newSchema();
    registry.add(
        "spring.datasource.url", () -> server.url("postgres") + "&currentSchema=" + schema);
  }

  @TempDir Path tmp;
  @Autowired Loopx loopx;
  @Autowired DataSource dataSource;
  @Autowired HealthEndpoint health;
  @Autowired ApplicationContext context;

  @Test
  void theApplicationRunsLoopxOnItsPooledDataSourceAndReportsReadiness() throws Exception {
    assertThat(dataSource).isInstanceOf(HikariDataSource.class);
    assertThat(context.getBeansOfType(PostgresActivationStore.class)).hasSize(1);
    assertThat(context.getBeansOfType(LoopxEndpoint.class)).isEmpty();

    Path dir = Fixtures.installSh(loopx, tmp);
    assertThat(loopx.list().extensions()).hasSize(1);
    assertThat(health.healthForPath("readiness").getStatus()).isEqualTo(Status.UP);
    assertThat(health.healthForPath("readiness", "loopx").getStatus()).isEqualTo(Status.UP);

    Fixtures.replaceShEntrypoint(dir);
    assertThat(health.healthForPath("readiness").getStatus()).isEqualTo(Status.DOWN);
    assertThat(health.healthForPath("liveness").getStatus()).isEqualTo(Status.UP);
  }
}
