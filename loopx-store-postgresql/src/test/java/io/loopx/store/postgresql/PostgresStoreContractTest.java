package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.StateFormat;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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

  /**
   * Hostile rows written by hand: each fails every read and write {@code state_unreadable} naming
   * its entry, while {@code entry(id)} of another id still reads.
   */
  @Test
  void hostileRowsAreRefusedByNameAndOtherEntriesStayUsable() throws Exception {
    store.update("install", List.of(Records.install("alpha-ext"), Records.install("beta-ext")));
    String valid =
        new String(StateFormat.encodeEntry(Records.installed("beta-ext")), StandardCharsets.UTF_8);
    List<String> hostile =
        List.of(
            " ",
            "not json",
            "null",
            "[]",
            "{}",
            valid.substring(0, valid.length() / 2),
            valid.replaceFirst("\\{", "{\"enabled\":false,"),
            new String(
                StateFormat.encodeEntry(Records.installed("alpha-ext")), StandardCharsets.UTF_8),
            valid.replace("\"enabled\":true", "\"enabled\":true,\"extra\":\"\u202e\""),
            valid + " trailing",
            "{\"x\":" + "[".repeat(5000) + "]".repeat(5000) + "}");
    for (String text : hostile) {
      setEntry(B, text);
      PostgresActivationStore otherHost = PostgresActivationStore.of(dataSource);
      assertKind(otherHost::read, ErrorKind.STATE_UNREADABLE, "invalid entry `beta-ext`");
      assertKind(() -> otherHost.entry(B), ErrorKind.STATE_UNREADABLE, "`beta-ext`");
      assertKind(
          () -> otherHost.update("install", List.of(Records.install("gamma-ext"))),
          ErrorKind.STATE_UNREADABLE,
          "invalid entry `beta-ext`");
      assertThat(otherHost.entry(A)).contains(Records.installed("alpha-ext"));
    }
    setEntry(B, valid);
    assertThat(PostgresActivationStore.of(dataSource).read().extensions()).hasSize(2);
  }

  private void setEntry(ExtensionId id, String text) throws Exception {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement("UPDATE loopx_extension_state SET entry = ? WHERE id = ?")) {
      ps.setString(1, text);
      ps.setString(2, id.value());
      assertThat(ps.executeUpdate()).isEqualTo(1);
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
