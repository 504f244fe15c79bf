package io.loopx.store.postgresql;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;

/** The store contract against the PostgreSQL store, on a real server (one schema per test). */
class PostgresStoreContractTest extends ActivationStoreContract {
  DataSource dataSource;
  PostgresActivationStore store;

  @BeforeEach
  void schema() {
    dataSource = EmbeddedPostgres.shared().freshSchema();
    store = PostgresActivationStore.of(dataSource);
    store.migrate();
  }

  @Override
  ActivationStore store() {
    return store;
  }

  @Override
  ActivationStore otherHost(Duration lockTimeout) {
    return PostgresActivationStore.builder(dataSource).lockTimeout(lockTimeout).build();
  }

  @Override
  Object writeMarker() {
    return store.generation();
  }

  @Override
  void corrupt(ExtensionId id) throws Exception {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE loopx_extension_state"
                    + " SET entry = replace(entry, '\"enabled\":true', '\"enabled\":\"yes\"')"
                    + " WHERE id = ?")) {
      ps.setString(1, id.value());
      if (ps.executeUpdate() != 1) {
        throw new IllegalStateException("no row " + id);
      }
    }
  }

  @Override
  AutoCloseable holdLock() throws Exception {
    Connection c = dataSource.getConnection();
    c.setAutoCommit(false);
    try (PreparedStatement ps =
        c.prepareStatement("SELECT generation FROM loopx_state_generation FOR UPDATE")) {
      ps.executeQuery().close();
    }
    return () -> {
      c.rollback();
      c.close();
    };
  }
}
