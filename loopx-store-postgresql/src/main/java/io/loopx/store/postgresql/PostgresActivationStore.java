package io.loopx.store.postgresql;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.StateFormat;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import javax.sql.DataSource;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * An {@link ActivationStore} on PostgreSQL: one activation state shared by every host that uses the
 * same database (docs/store-postgresql.md). The host passes its own {@link DataSource} (its pool,
 * its credentials); the store holds no connection between calls, except the one of the change
 * listener when {@link Builder#onChange} is set.
 *
 * <p>Same contract as the file store: the same entries (each row holds one {@code state.json} entry
 * as JSON text, re-validated by the same rules on every read, so a row that fails them makes the
 * whole read fail with {@code STATE_UNREADABLE} naming the entry); writes are one transaction that
 * locks the generation row with a bounded {@code lock_timeout} ({@code STATE_LOCKED}), compares
 * every changed entry with its expected value ({@code STATE_CONFLICT}) and writes them all or none;
 * a change that alters nothing is not written. Connection and server failures are {@code
 * IO_FAILED}.
 *
 * <p>Every read first reads the generation (one row, bumped by every committed change of an entry):
 * when it is the generation last decoded, the same immutable state is returned without reading the
 * entries, so every read sees every change committed by any host before it, at the cost of one
 * indexed query. {@link #entry} reads one row. Thread-safe.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class PostgresActivationStore implements ActivationStore, AutoCloseable {
  /** The bounded wait for the row lock of a write (and for a migration's advisory lock). */
  public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(5);

  /** The polling bound of the change listener while its notification connection is lost. */
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

  /** The schema version this store reads and writes ({@code db/V1__loopx_state.sql}). */
  public static final int SCHEMA_VERSION = Schema.VERSION;

  private final DataSource dataSource;
  private final Duration lockTimeout;
  private final boolean migrateOnFirstUse;
  private final AtomicReference<Decoded> last = new AtomicReference<>(Decoded.NONE);
  private volatile boolean schemaChecked;
  private final @Nullable ChangeListener listener;

  /** A generation and the state it decoded to, with each entry's text for reuse. */
  private record Decoded(
      long generation, ActivationState state, Map<String, TextAndRecord> entries) {
    static final Decoded NONE = new Decoded(-1, ActivationState.EMPTY, Map.of());
  }

  private record TextAndRecord(String text, ExtensionRecord record) {}

  private PostgresActivationStore(Builder b) {
    this.dataSource = b.dataSource;
    this.lockTimeout = b.lockTimeout;
    this.migrateOnFirstUse = b.migrateOnFirstUse;
    LongConsumer onChange = b.onChange;
    this.listener =
        onChange == null ? null : ChangeListener.start(dataSource, b.pollInterval, onChange);
  }

  /** Returns a builder over {@code dataSource}. */
  public static Builder builder(DataSource dataSource) {
    return new Builder(dataSource);
  }

  /** Returns a store over {@code dataSource} with the defaults (no migration, no listener). */
  public static PostgresActivationStore of(DataSource dataSource) {
    return builder(dataSource).build();
  }

  /**
   * Creates or upgrades the schema in the data source's current schema ({@code search_path}):
   * idempotent, and safe when several hosts call it at once (they serialise on an advisory lock;
   * each version is applied once). Needs a role that may create tables and functions.
   *
   * @return the schema version now installed
   * @throws LoopxException {@code STATE_UNREADABLE} when the database holds a newer schema version,
   *     {@code STATE_LOCKED} when another migration holds the lock too long, {@code IO_FAILED}
   *     otherwise
   */
  public int migrate() {
    int version = Schema.migrate(dataSource, lockTimeout);
    schemaChecked = true;
    return version;
  }

  /**
   * Returns the generation committed now: a number that grows with every committed change of an
   * entry, by any host.
   *
   * @throws LoopxException {@code STATE_UNREADABLE} or {@code IO_FAILED}
   */
  public long generation() {
    requireSchema();
    try (Connection c = dataSource.getConnection()) {
      return Sql.generation(c, Sql.GENERATION);
    } catch (SQLException e) {
      throw Sql.failure(e, "read", "read");
    }
  }

  @Override
  public ActivationState read() {
    requireSchema();
    try (Connection c = dataSource.getConnection()) {
      if (!c.getAutoCommit()) {
        c.setAutoCommit(true);
      }
      long generation = Sql.generation(c, Sql.GENERATION);
      Decoded known = current();
      if (known.generation() == generation) {
        return known.state();
      }
      Decoded decoded = readAll(c);
      last.set(decoded);
      return decoded.state();
    } catch (SQLException e) {
      throw Sql.failure(e, "read", "read");
    }
  }

  @Override
  public Optional<ExtensionRecord> entry(ExtensionId id) {
    requireSchema();
    try (Connection c = dataSource.getConnection()) {
      if (!c.getAutoCommit()) {
        c.setAutoCommit(true);
      }
      try (PreparedStatement ps = c.prepareStatement(Sql.ONE_ENTRY)) {
        ps.setString(1, id.value());
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            return Optional.empty();
          }
          return Optional.of(decode(id.value(), rs.getString(1), current().entries()));
        }
      }
    } catch (SQLException e) {
      throw Sql.failure(e, "read", "read");
    }
  }

  @Override
  public ActivationState update(String operation, List<EntryChange> changes) {
    List<EntryChange> effective = changes.stream().filter(EntryChange::changes).toList();
    if (effective.isEmpty()) {
      return read();
    }
    requireSchema();
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        Decoded decoded = write(c, operation, effective);
        c.commit();
        last.set(decoded);
        return decoded.state();
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(c);
        throw e;
      } finally {
        restore(c, autoCommit);
      }
    } catch (SQLException e) {
      throw Sql.failure(e, "write", operation);
    }
  }

  private Decoded write(Connection c, String operation, List<EntryChange> effective)
      throws SQLException {
    // READ COMMITTED for this transaction only, whatever the session's default: each statement
    // after the row lock sees every write committed before it. (Not Connection's
    // setTransactionIsolation: with the PostgreSQL driver that costs a round trip to read the
    // session's level, one to set it and one to restore it.)
    Sql.readCommitted(c);
    Sql.lockTimeout(c, lockTimeout);
    Sql.generation(c, Sql.LOCK_GENERATION);
    Decoded current = readAll(c);
    ActivationState next = current.state();
    Map<String, TextAndRecord> entries = new HashMap<>(current.entries());
    for (EntryChange change : effective) {
      if (!current.state().get(change.id()).equals(change.expected())) {
        throw new LoopxException(
            ErrorKind.STATE_CONFLICT, "extension state changed during " + operation + "; retry");
      }
      next = next.with(change.id(), change.replacement());
    }
    try (PreparedStatement upsert = c.prepareStatement(Sql.UPSERT);
        PreparedStatement delete = c.prepareStatement(Sql.DELETE)) {
      for (EntryChange change : effective) {
        String key = change.id().value();
        if (change.replacement().isPresent()) {
          ExtensionRecord r = change.replacement().get();
          String text = new String(StateFormat.encodeEntry(r), StandardCharsets.UTF_8);
          upsert.setString(1, key);
          upsert.setString(2, text);
          upsert.executeUpdate();
          entries.put(key, new TextAndRecord(text, r));
        } else {
          delete.setString(1, key);
          delete.executeUpdate();
          entries.remove(key);
        }
      }
    }
    long generation = Sql.generation(c, Sql.GENERATION);
    return new Decoded(generation, next, Map.copyOf(entries));
  }

  /** Reads the generation and every entry in one statement (one snapshot) and decodes them. */
  private Decoded readAll(Connection c) throws SQLException {
    Map<String, TextAndRecord> known = current().entries();
    Map<String, TextAndRecord> entries = new HashMap<>();
    TreeMap<ExtensionId, ExtensionRecord> records = new TreeMap<>();
    long generation = -1;
    try (PreparedStatement ps = c.prepareStatement(Sql.ALL_ENTRIES);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        generation = rs.getLong(1);
        String key = rs.getString(2);
        if (key == null) {
          continue; // no entry: the left join's single row
        }
        String text = rs.getString(3);
        ExtensionRecord r = decode(key, text, known);
        entries.put(key, new TextAndRecord(text, r));
        records.put(r.id(), r);
      }
    }
    if (generation < 0) {
      throw new LoopxException(
          ErrorKind.STATE_UNREADABLE,
          "extension runtime state is unreadable: loopx_state_generation has no row");
    }
    Decoded previous = current();
    ActivationState state = new ActivationState(records);
    if (previous.state().equals(state)) {
      state = previous.state(); // same content: keep the instance readers compare by identity
    }
    return new Decoded(generation, state, Map.copyOf(entries));
  }

  /** Decodes one row, reusing the record of an identical text decoded before. */
  private static ExtensionRecord decode(
      String key, @Nullable String text, Map<String, TextAndRecord> known) {
    if (text == null) {
      throw new LoopxException(
          ErrorKind.STATE_UNREADABLE,
          "extension runtime state has an invalid entry `" + key + "`: entry is null");
    }
    TextAndRecord k = known.get(key);
    if (k != null && k.text().equals(text)) {
      return k.record();
    }
    return StateFormat.decodeEntry(key, text.getBytes(StandardCharsets.UTF_8));
  }

  private Decoded current() {
    return Objects.requireNonNull(last.get(), "last"); // never set to null
  }

  private void requireSchema() {
    if (schemaChecked) {
      return;
    }
    int installed = Schema.installed(dataSource);
    Schema.requireKnown(installed);
    if (installed < Schema.VERSION) {
      if (!migrateOnFirstUse) {
        throw new LoopxException(
            ErrorKind.STATE_UNREADABLE,
            "extension runtime state is unreadable: the database holds LoopX schema version "
                + installed
                + ", not "
                + Schema.VERSION
                + " (run PostgresActivationStore.migrate()"
                + (installed == 0
                    ? "; if it ran, grant this role USAGE on the schema of its search_path)"
                    : ")"));
      }
      Schema.migrate(dataSource, lockTimeout);
    }
    schemaChecked = true;
  }

  private static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException ignored) {
      // the connection is gone: the server rolls the transaction back
    }
  }

  private static void restore(Connection c, boolean autoCommit) {
    try {
      c.setAutoCommit(autoCommit);
    } catch (SQLException ignored) {
      // a broken connection: the pool discards it
    }
  }

  /** Test hook: waits until the change listener (if any) listens; false when none or too slow. */
  boolean awaitListening(Duration timeout) throws InterruptedException {
    return listener != null && listener.awaitListening(timeout);
  }

  /** Stops the change listener, if any, and closes its connection. */
  @Override
  public void close() {
    if (listener != null) {
      listener.close();
    }
  }

  /**
   * Options of a {@link PostgresActivationStore}. Every method refuses a bad argument (a missing
   * one included) with {@link InvalidValueException}.
   */
  public static final class Builder {
    private final DataSource dataSource;
    private Duration lockTimeout = DEFAULT_LOCK_TIMEOUT;
    private Duration pollInterval = DEFAULT_POLL_INTERVAL;
    private boolean migrateOnFirstUse;
    private @Nullable LongConsumer onChange;

    private Builder(DataSource dataSource) {
      if (dataSource == null) {
        throw new InvalidValueException("data source", "null", "is required");
      }
      this.dataSource = dataSource;
    }

    /** Sets the bounded wait for the write lock (default {@link #DEFAULT_LOCK_TIMEOUT}). */
    public Builder lockTimeout(Duration timeout) {
      positive("lock timeout", timeout);
      this.lockTimeout = timeout;
      return this;
    }

    /**
     * Applies the schema on the first use when it is missing or older (default off: call {@link
     * #migrate()}); the role must then be allowed to create tables.
     */
    public Builder migrateOnFirstUse(boolean value) {
      this.migrateOnFirstUse = value;
      return this;
    }

    /**
     * Calls {@code listener} with the new generation after every committed change of the state, by
     * any host (this one included), from a daemon thread that holds one connection of the data
     * source and {@code LISTEN}s; while that connection is lost it polls the generation every
     * {@linkplain #pollInterval poll interval} and reconnects. The listener must not block for
     * long; a host typically refreshes its registry generation there.
     */
    public Builder onChange(LongConsumer listener) {
      if (listener == null) {
        throw new InvalidValueException("change listener", "null", "is required");
      }
      this.onChange = listener;
      return this;
    }

    /**
     * Sets the change listener's polling bound (default {@link #DEFAULT_POLL_INTERVAL}): the
     * longest a change goes unreported while notifications are lost.
     */
    public Builder pollInterval(Duration interval) {
      positive("poll interval", interval);
      this.pollInterval = interval;
      return this;
    }

    /** Builds the store (and starts the change listener when one is set). */
    public PostgresActivationStore build() {
      return new PostgresActivationStore(this);
    }

    /**
     * The store's owner of the rule "a duration must be positive" (this module does not reach the
     * other modules' internals, so it keeps its own; the message is the runtime's).
     */
    private static void positive(String what, @Nullable Duration value) {
      if (value == null) {
        throw new InvalidValueException(what, "null", "is required");
      }
      if (value.isNegative() || value.isZero()) {
        throw new InvalidValueException(what, value.toString(), "must be positive");
      }
    }
  }
}
