package io.loopx.store.postgresql;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The versioned schema ({@code db/V<n>__*.sql} beside this class) and its migration
 * (package-private): one transaction holding a transaction-scoped advisory lock, so hosts that
 * migrate at once apply each version exactly once; {@code loopx_schema_version} records them.
 */
final class Schema {
  /** The schema version this module reads and writes. */
  static final int VERSION = 1;

  private static final List<String> SCRIPTS = List.of("db/V1__loopx_state.sql");

  /** The advisory lock key of migrations: the first 8 bytes of "loopxsch" as a bigint. */
  private static final long MIGRATION_LOCK = 0x6c6f6f7078736368L;

  private static final String CREATE_VERSIONS =
      "CREATE TABLE IF NOT EXISTS loopx_schema_version ("
          + " version integer PRIMARY KEY,"
          + " script text NOT NULL,"
          + " applied_at timestamptz NOT NULL DEFAULT now())";
  private static final String CURRENT =
      "SELECT coalesce(max(version), 0) FROM loopx_schema_version";
  private static final String RECORD =
      "INSERT INTO loopx_schema_version (version, script) VALUES (?, ?)";

  private Schema() {}

  /**
   * Applies the missing versions and returns the schema version now in the database.
   *
   * @throws LoopxException {@code STATE_UNREADABLE} when the database holds a newer version, {@code
   *     STATE_LOCKED} when another migration holds the lock past {@code lockTimeout}, {@code
   *     IO_FAILED} otherwise (e.g. the role may not create tables)
   */
  static int migrate(DataSource dataSource, Duration lockTimeout) {
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        Sql.lockTimeout(c, lockTimeout);
        try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
          lock.setLong(1, MIGRATION_LOCK);
          lock.execute();
        }
        try (PreparedStatement create = c.prepareStatement(CREATE_VERSIONS)) {
          create.execute();
        }
        int current = current(c);
        requireKnown(current);
        for (int v = current + 1; v <= VERSION; v++) {
          String script = SCRIPTS.get(v - 1);
          try (PreparedStatement apply = c.prepareStatement(read(script))) {
            apply.execute();
          }
          try (PreparedStatement record = c.prepareStatement(RECORD)) {
            record.setInt(1, v);
            record.setString(2, script.substring(script.indexOf('/') + 1));
            record.executeUpdate();
          }
        }
        c.commit();
        return VERSION;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw Sql.failure(e, "migrate", "migrate");
    }
  }

  /**
   * Returns the schema version recorded in the database, 0 when none is.
   *
   * @throws LoopxException {@code IO_FAILED} when the database cannot be reached
   */
  static int installed(DataSource dataSource) {
    try (Connection c = dataSource.getConnection()) {
      try (PreparedStatement ps =
              c.prepareStatement("SELECT to_regclass('loopx_schema_version') IS NOT NULL");
          ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (!rs.getBoolean(1)) {
          return 0;
        }
      }
      return current(c);
    } catch (SQLException e) {
      throw Sql.failure(e, "read", "read");
    }
  }

  /**
   * Requires that {@code version} is one this module knows.
   *
   * @throws LoopxException {@code STATE_UNREADABLE} for a newer version
   */
  static void requireKnown(int version) {
    if (version > VERSION) {
      throw new LoopxException(
          ErrorKind.STATE_UNREADABLE,
          "extension runtime state is unreadable: the database holds LoopX schema version "
              + version
              + ", newer than "
              + VERSION);
    }
  }

  private static int current(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(CURRENT);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static String read(String script) {
    try (InputStream in =
        Objects.requireNonNull(Schema.class.getResourceAsStream(script), script)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new LoopxException(ErrorKind.IO_FAILED, "cannot read the schema script " + script, e);
    }
  }
}
