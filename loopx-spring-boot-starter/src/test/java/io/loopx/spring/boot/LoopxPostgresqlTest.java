package io.loopx.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.Loopx;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.store.postgresql.PostgresActivationStore;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code loopx.store.type=postgresql} on the application's {@link DataSource}, against the real
 * PostgreSQL server the store module's tests start ({@link EmbeddedPostgres}, one fresh schema per
 * test): the schema migrated at startup or not, state shared by two application contexts, and the
 * health indicator DOWN while the store cannot be read.
 */
class LoopxPostgresqlTest {
  @TempDir Path tmp;

  private static ApplicationContextRunner runner(DataSource dataSource, String... properties) {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                LoopxAutoConfiguration.class, LoopxActuatorAutoConfiguration.class))
        .withBean(DataSource.class, () -> dataSource)
        .withPropertyValues("loopx.store.type=postgresql")
        .withPropertyValues(properties);
  }

  @Test
  void migratedAtStartupTheStoreIsSharedByTwoApplications() {
    DataSource dataSource = EmbeddedPostgres.shared().freshSchema();
    runner(
            dataSource,
            "loopx.store.postgresql.migrate=true",
            "loopx.store.postgresql.lock-timeout=2s")
        .run(
            first -> {
              assertThat(first).hasSingleBean(PostgresActivationStore.class);
              assertThat(first.getBean(ActivationStore.class))
                  .isSameAs(first.getBean(PostgresActivationStore.class));
              Fixtures.installSh(first.getBean(Loopx.class), tmp);

              // a second application on the same database, without migration, sees it at once
              runner(dataSource)
                  .run(
                      second -> {
                        Loopx loopx = second.getBean(Loopx.class);
                        assertThat(loopx.list().extensions())
                            .extracting(e -> e.id().value())
                            .containsExactly("demo-sh");
                        Health health =
                            second
                                .getBean("loopxHealthIndicator", LoopxHealthIndicator.class)
                                .health();
                        assertThat(health.getStatus()).isEqualTo(Status.UP);
                        assertThat(health.getDetails())
                            .containsEntry("enabled", List.of("demo-sh"));
                      });
            });
  }

  @Test
  void withoutMigrationAFreshSchemaIsUnreadableAndTheHealthSaysSo() {
    DataSource dataSource = EmbeddedPostgres.shared().freshSchema();
    runner(dataSource)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              Health health =
                  context.getBean("loopxHealthIndicator", LoopxHealthIndicator.class).health();
              assertThat(health.getStatus()).isEqualTo(Status.DOWN);
              assertThat(health.getDetails())
                  .containsEntry("store", "unreachable")
                  .containsEntry("error", "state_unreadable");
              assertThat((String) health.getDetails().get("message")).contains("migrate()");
            });
  }

  @Test
  void withoutADataSourceTheStartupFailsByName() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(LoopxAutoConfiguration.class))
        .withPropertyValues("loopx.store.type=postgresql")
        .run(
            context ->
                assertThat(context).getFailure().hasMessageContaining("javax.sql.DataSource"));
  }
}
