package io.loopx.store.postgresql;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;

/** The store's SQL statements and the mapping of SQL failures to error kinds (package-private). */
final class Sql {
  static final String CHANNEL = "loopx_state";
  static final String GENERATION = "SELECT generation FROM loopx_state_generation";
  static final String LOCK_GENERATION = GENERATION + " FOR UPDATE";
  static final String ALL_ENTRIES =
      "SELECT g.generation, e.id, e.entry FROM loopx_state_generation g"
          + " LEFT JOIN loopx_extension_state e ON true ORDER BY e.id";
  static final String ONE_ENTRY = "SELECT entry FROM loopx_extension_state WHERE id = ?";
  static final String UPSERT =
      "INSERT INTO loopx_extension_state (id, entry) VALUES (?, ?)"
          + " ON CONFLICT (id) DO UPDATE SET entry = EXCLUDED.entry";
  static final String DELETE = "DELETE FROM loopx_extension_state WHERE id = ?";
  static final String LOCK_TIMEOUT = "SELECT set_config('lock_timeout', ?, true)";
  static final String READ_COMMITTED = "SET TRANSACTION ISOLATION LEVEL READ COMMITTED";

  private Sql() {}

  /**
   * Sets the transaction's isolation level to {@code READ COMMITTED}: the first statement of the
   * transaction (the driver sends it with its {@code BEGIN}, one round trip).
   */
  static void readCommitted(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(READ_COMMITTED)) {
      ps.execute();
    }
  }

  /** Sets the transaction's {@code lock_timeout} (a bounded wait for every lock it takes). */
  static void lockTimeout(Connection c, Duration timeout) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(LOCK_TIMEOUT)) {
      ps.setString(1, Math.max(1, timeout.toMillis()) + "ms");
      ps.execute();
    }
  }

  /**
   * Reads the generation row.
   *
   * @throws LoopxException {@code STATE_UNREADABLE} when the row is missing
   */
  static long generation(Connection c, String query) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(query);
        ResultSet rs = ps.executeQuery()) {
      if (!rs.next()) {
        throw new LoopxException(
            ErrorKind.STATE_UNREADABLE,
            "extension runtime state is unreadable: loopx_state_generation has no row");
      }
      return rs.getLong(1);
    }
  }

  /**
   * Maps a SQL failure to a typed error: a lock not had within {@code lock_timeout} is {@code
   * STATE_LOCKED}, a serialization failure or deadlock {@code STATE_CONFLICT}, a missing table or
   * column {@code STATE_UNREADABLE}, anything else (connection lost, no privilege, server stopping)
   * {@code IO_FAILED}.
   *
   * @param verb {@code read}, {@code write} or {@code migrate}, for the {@code IO_FAILED} message
   * @param operation the lifecycle operation, for the conflict message
   */
  static LoopxException failure(SQLException e, String verb, String operation) {
    String state = Objects.requireNonNullElse(e.getSQLState(), "");
    if (state.equals("55P03")) {
      return new LoopxException(
          ErrorKind.STATE_LOCKED, "extension runtime state is locked by another process", e);
    }
    if (state.equals("40001") || state.equals("40P01")) {
      return new LoopxException(
          ErrorKind.STATE_CONFLICT, "extension state changed during " + operation + "; retry", e);
    }
    if (state.equals("42P01") || state.equals("42703") || state.equals("42883")) {
      return new LoopxException(
          ErrorKind.STATE_UNREADABLE,
          "extension runtime state is unreadable: the LoopX schema is missing or altered"
              + " (PostgresActivationStore.migrate()): "
              + e.getMessage(),
          e);
    }
    return new LoopxException(
        ErrorKind.IO_FAILED,
        "cannot "
            + verb
            + " extension runtime state in PostgreSQL: "
            + (state.isEmpty() ? "" : "SQLSTATE " + state + ": ")
            + e.getMessage(),
        e);
  }
}
