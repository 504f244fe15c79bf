package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** The schema's migration: explicit or on first use, idempotent, safe when hosts start at once. */
class SchemaMigrationTest {
  final DataSource dataSource = EmbeddedPostgres.shared().freshSchema();

  long versionRows() throws Exception {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM loopx_schema_version");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void hostsMigratingAtOnceApplyEachVersionOnce() throws Exception {
    int hosts = 4;
    ExecutorService pool = Executors.newFixedThreadPool(hosts);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Integer>> results = new ArrayList<>();
      for (int i = 0; i < hosts; i++) {
        results.add(
            pool.submit(
                () -> {
                  go.await();
                  return PostgresActivationStore.of(dataSource).migrate();
                }));
      }
      go.countDown();
      for (Future<Integer> r : results) {
        assertThat(r.get(60, TimeUnit.SECONDS)).isEqualTo(PostgresActivationStore.SCHEMA_VERSION);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(versionRows()).isEqualTo(1);
    assertThat(PostgresActivationStore.of(dataSource).migrate()).isEqualTo(1);
    assertThat(versionRows()).isEqualTo(1);
    assertThat(PostgresActivationStore.of(dataSource).read().isEmpty()).isTrue();
  }

  @Test
  void withoutTheSchemaAStoreFailsClosedUnlessItMayMigrate() throws Exception {
    assertThatThrownBy(() -> PostgresActivationStore.of(dataSource).read())
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE))
        .hasMessageContaining("migrate()");

    PostgresActivationStore store =
        PostgresActivationStore.builder(dataSource).migrateOnFirstUse(true).build();
    assertThat(store.read().isEmpty()).isTrue();
    assertThat(versionRows()).isEqualTo(1);
  }

  @Test
  void aNewerSchemaIsRefused() throws Exception {
    PostgresActivationStore.of(dataSource).migrate();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO loopx_schema_version (version, script) VALUES (2, 'V2__future.sql')")) {
      ps.executeUpdate();
    }

    assertThatThrownBy(() -> PostgresActivationStore.of(dataSource).read())
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE))
        .hasMessageContaining("schema version 2, newer than 1");
    assertThatThrownBy(() -> PostgresActivationStore.of(dataSource).migrate())
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STATE_UNREADABLE));
  }
}
