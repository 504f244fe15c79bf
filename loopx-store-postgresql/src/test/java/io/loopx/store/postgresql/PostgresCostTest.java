package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.loopx.api.ExtensionId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * What each operation costs on the PostgreSQL store (docs/store-postgresql.md#cost-per-operation),
 * pinned: the connections borrowed from the host's data source and the statements the store runs,
 * counted at the JDBC boundary by a counting {@link DataSource} (a proxy over data source,
 * connection and statements), and the statements the server received, read from its log ({@code
 * log_statement=all}, set only on the counted connections): the store's own plus what the driver
 * sends for it ({@code BEGIN}, {@code COMMIT}, the isolation level).
 *
 * <p>A real host ({@link HostMain#loopx}) with a real warm worker ({@code worker.py}, {@code
 * [runtime.worker]}) on a fresh schema. The reaper thread of the host's workers reads the state
 * once a second while a worker lives (docs/contract/worker.md#lifecycle-changes); its connections
 * come from another, unlogged data source and are not counted, so the counts are those of the
 * calling thread's operation only.
 */
class PostgresCostTest {
  static final ExtensionId ID = FleetWorkerRetireTest.ID;
  static final String REAPER = "loopx-worker-reaper";

  @TempDir Path tmp;

  /** One operation's cost. */
  record Cost(int connections, List<String> statements, List<String> server) {
    @Override
    public String toString() {
      return connections
          + " connection(s), "
          + statements.size()
          + " statement(s) "
          + statements
          + ", server received "
          + server.size()
          + " "
          + server;
    }
  }

  /** The counters of the counting data source, and the server log. */
  static final class Meter {
    final AtomicInteger connections = new AtomicInteger();
    final List<String> statements = Collections.synchronizedList(new ArrayList<>());
    final Path log = EmbeddedPostgres.shared().serverLog();

    <T> T measure(String name, Map<String, Cost> costs, Supplier<T> operation) {
      connections.set(0);
      statements.clear();
      long from = logSize();
      T result = operation.get();
      costs.put(
          name,
          new Cost(
              connections.get(),
              List.copyOf(statements),
              serverStatements(from))); // logged before their results were sent: all there now
      return result;
    }

    private long logSize() {
      return log.toFile().length();
    }

    /** The statements logged since {@code from} by the counted (logging) connections. */
    private List<String> serverStatements(long from) {
      try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
        f.seek(from);
        byte[] bytes = new byte[(int) (f.length() - from)];
        f.readFully(bytes);
        List<String> out = new ArrayList<>();
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
          int at = line.indexOf("LOG:  statement: ");
          int exec = line.indexOf("LOG:  execute ");
          if (at >= 0) {
            out.add(line.substring(at + "LOG:  statement: ".length()));
          } else if (exec >= 0) {
            out.add(line.substring(line.indexOf(": ", exec + 6) + 2));
          }
        }
        return out;
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * A data source that counts what it lends: connections from {@code logged}, except on the worker
   * reaper's thread, which gets {@code quiet}'s (not counted, not logged).
   */
  static DataSource counting(DataSource logged, DataSource quiet, Meter meter) {
    return proxy(
        DataSource.class,
        (p, m, args) -> {
          if (!m.getName().equals("getConnection")) {
            return invoke(m, logged, args);
          }
          if (Thread.currentThread().getName().equals(REAPER)) {
            return invoke(m, quiet, args);
          }
          meter.connections.incrementAndGet();
          Connection c = (Connection) invoke(m, logged, args);
          return proxy(
              Connection.class,
              (cp, cm, cargs) -> {
                Object r = invoke(cm, c, cargs);
                return switch (cm.getName()) {
                  case "prepareStatement" ->
                      statement(PreparedStatement.class, (Statement) r, (String) cargs[0], meter);
                  case "createStatement" -> statement(Statement.class, (Statement) r, null, meter);
                  default -> r;
                };
              });
        });
  }

  private static Object statement(Class<?> type, Statement s, String sql, Meter meter) {
    return proxy(
        type,
        (p, m, args) -> {
          if (m.getName().startsWith("execute")) {
            meter.statements.add(sql != null ? sql : String.valueOf(args[0]));
          }
          return invoke(m, s, args);
        });
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<?> type, java.lang.reflect.InvocationHandler handler) {
    return (T)
        Proxy.newProxyInstance(
            PostgresCostTest.class.getClassLoader(), new Class<?>[] {type}, handler);
  }

  private static Object invoke(Method m, Object target, Object[] args) throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Test
  void eachOperationBorrowsAndQueriesAsDocumented() throws Exception {
    EmbeddedPostgres pg = EmbeddedPostgres.shared();
    String schema = pg.newSchema();
    PGSimpleDataSource logged = (PGSimpleDataSource) pg.dataSource("postgres", schema);
    logged.setOptions("-c log_statement=all");
    DataSource quiet = pg.dataSource("postgres", schema);
    PostgresActivationStore.of(quiet).migrate();
    Meter meter = new Meter();
    Map<String, Cost> costs = new LinkedHashMap<>();
    Path pkg = FleetWorkerRetireTest.write(tmp.resolve("warm"), "1.0.0");

    try (PostgresActivationStore store =
            PostgresActivationStore.of(counting(logged, quiet, meter));
        Loopx host = HostMain.loopx(store);
        PostgresActivationStore otherStore = PostgresActivationStore.of(quiet);
        Loopx other = HostMain.loopx(otherStore)) {
      meter.measure("first use of a store", costs, store::read);
      meter.measure(
          "install", costs, () -> host.install(FleetWorkerRetireTest.load(pkg), Mode.EXECUTE));
      meter.measure("registry()", costs, host::registry);
      meter.measure("doctor", costs, () -> host.doctor(ID, Mode.EXECUTE));
      DispatchReceipt first = meter.measure("dispatch, worker start", costs, () -> dispatch(host));
      assertThat(first.outcome().exitCode()).as("answered by a worker").isEmpty();
      for (int i = 0; i < 5; i++) {
        DispatchReceipt warm =
            meter.measure("dispatch, warm worker " + i, costs, () -> dispatch(host));
        assertThat(warm.ok()).isTrue();
        assertThat(warm.outcome().exitCode()).as("answered by a worker").isEmpty();
      }
      DispatchReceipt oneShot =
          meter.measure(
              "dispatch, one-shot",
              costs,
              () ->
                  host.dispatch(
                      FleetLifecycleTest.request()
                          .input(FleetLifecycleTest.REQUEST)
                          .oneShot()
                          .build(),
                      Mode.EXECUTE));
      assertThat(oneShot.ok()).isTrue();
      assertThat(oneShot.outcome().exitCode()).as("a one-shot process").isPresent();
      meter.measure("list", costs, host::list);
      meter.measure("disable", costs, () -> host.disable(ID, Mode.EXECUTE));
      meter.measure("enable", costs, () -> host.enable(ID, Mode.EXECUTE));
      FleetWorkerRetireTest.manifest(pkg, "1.1.0");
      meter.measure(
          "upgrade", costs, () -> host.upgrade(FleetWorkerRetireTest.load(pkg), Mode.EXECUTE));
      meter.measure("rollback", costs, () -> host.rollback(ID, Mode.EXECUTE));
      other.disable(ID, Mode.EXECUTE); // another host's commit: the generation moved
      meter.measure("registry() after another host's commit", costs, host::registry);
      meter.measure("uninstall", costs, () -> host.uninstall(ID, Mode.EXECUTE));
    }
    costs.forEach((k, v) -> System.out.println("COST " + k + ": " + v));

    List<String> read = List.of(Sql.GENERATION);
    List<String> readChanged = List.of(Sql.GENERATION, Sql.ALL_ENTRIES);
    List<String> check = List.of(Sql.ONE_ENTRY);
    Map<String, Expected> expected = new LinkedHashMap<>();
    expected.put(
        "first use of a store",
        new Expected(
            2,
            List.of(
                "SELECT to_regclass('loopx_schema_version') IS NOT NULL", // the schema check
                "SELECT coalesce(max(version), 0) FROM loopx_schema_version",
                Sql.GENERATION,
                Sql.ALL_ENTRIES)));
    expected.put("install", Expected.write(Sql.UPSERT));
    expected.put("registry()", new Expected(1, read));
    expected.put("doctor", new Expected(2, concat(read, read)));
    // The execute-time check before the worker's start and again before the frame.
    expected.put("dispatch, worker start", new Expected(3, concat(read, check, check)));
    for (int i = 0; i < 5; i++) {
      // One read to resolve (the generation), one entry right before the frame.
      expected.put("dispatch, warm worker " + i, new Expected(2, concat(read, check)));
    }
    expected.put("dispatch, one-shot", new Expected(2, concat(read, check)));
    expected.put("list", new Expected(1, read));
    expected.put("disable", Expected.write(Sql.UPSERT));
    expected.put("enable", Expected.write(Sql.UPSERT));
    expected.put("upgrade", Expected.write(Sql.UPSERT));
    expected.put("rollback", Expected.write(Sql.UPSERT));
    expected.put("registry() after another host's commit", new Expected(1, readChanged));
    expected.put("uninstall", Expected.write(Sql.DELETE));
    assertThat(costs.keySet()).containsExactlyElementsOf(expected.keySet());
    expected.forEach(
        (name, e) -> {
          Cost c = costs.get(name);
          assertThat(c.connections())
              .as(name + ": connections borrowed")
              .isEqualTo(e.connections());
          assertThat(c.statements()).as(name + ": statements").isEqualTo(e.statements());
          // What the server received: a new connection of the plain data source sets its
          // application_name (the driver's own round trip; none with a pool), a write adds the
          // transaction's BEGIN (sent with its first statement) and COMMIT; nothing else (no
          // isolation level read, set and restored around a write).
          List<String> server = c.server();
          long setup = server.stream().filter(q -> q.startsWith("SET application_name")).count();
          assertThat(setup).as(name + ": connection setups").isEqualTo(e.connections());
          boolean write = e.statements().contains(Sql.LOCK_GENERATION);
          assertThat(server)
              .as(name + ": server statements")
              .hasSize((int) setup + e.statements().size() + (write ? 2 : 0));
          assertThat(server.stream().filter(q -> q.equals("BEGIN") || q.equals("COMMIT")))
              .as(name + ": transactions")
              .hasSize(write ? 2 : 0);
        });
  }

  /** An operation's pinned cost: connections borrowed and the store's statements, in order. */
  record Expected(int connections, List<String> statements) {
    /** A lifecycle write: its read of the state, then one transaction on a second connection. */
    static Expected write(String change) {
      return new Expected(
          2,
          List.of(
              Sql.GENERATION,
              Sql.READ_COMMITTED,
              Sql.LOCK_TIMEOUT,
              Sql.LOCK_GENERATION,
              Sql.ALL_ENTRIES,
              change,
              Sql.GENERATION));
    }
  }

  @SafeVarargs
  private static List<String> concat(List<String>... parts) {
    List<String> out = new ArrayList<>();
    for (List<String> p : parts) {
      out.addAll(p);
    }
    return out;
  }

  /**
   * With a pool (HikariCP, as the docs wire it), an operation borrows and queries the same, and the
   * server receives only the store's statements: no connection is opened per borrow (no driver
   * setup statement), unlike the plain data source above.
   */
  @Test
  void aPooledStoreSendsOnlyItsOwnStatements() throws Exception {
    EmbeddedPostgres pg = EmbeddedPostgres.shared();
    String schema = pg.newSchema();
    PGSimpleDataSource logged = (PGSimpleDataSource) pg.dataSource("postgres", schema);
    logged.setOptions("-c log_statement=all");
    DataSource quiet = pg.dataSource("postgres", schema);
    PostgresActivationStore.of(quiet).migrate();
    HikariConfig config = new HikariConfig();
    config.setDataSource(logged);
    config.setMaximumPoolSize(2);
    Meter meter = new Meter();
    Map<String, Cost> costs = new LinkedHashMap<>();
    Path pkg = FleetWorkerRetireTest.write(tmp.resolve("warm"), "1.0.0");
    try (HikariDataSource pool = new HikariDataSource(config);
        PostgresActivationStore store = PostgresActivationStore.of(counting(pool, quiet, meter));
        Loopx host = HostMain.loopx(store)) {
      assertThat(host.install(FleetWorkerRetireTest.load(pkg), Mode.EXECUTE).ok()).isTrue();
      dispatch(host); // starts the worker
      // The pool opens its connections in the background: measured once it holds both.
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (pool.getHikariPoolMXBean().getTotalConnections() < 2) {
        assertThat(System.nanoTime()).as("the pool's second connection").isLessThan(deadline);
        LockSupport.parkNanos(5_000_000); // poll interval, not a synchronisation
      }
      for (int i = 0; i < 5; i++) {
        meter.measure("warm " + i, costs, () -> dispatch(host));
      }
      meter.measure("disable", costs, () -> host.disable(ID, Mode.EXECUTE));
    }
    costs.forEach((k, v) -> System.out.println("POOLED " + k + ": " + v));
    costs.forEach(
        (name, c) -> {
          boolean write = name.equals("disable");
          Expected e =
              write
                  ? Expected.write(Sql.UPSERT)
                  : new Expected(2, List.of(Sql.GENERATION, Sql.ONE_ENTRY));
          assertThat(c.connections()).as(name + ": connections borrowed").isEqualTo(2);
          assertThat(c.statements()).as(name + ": statements").isEqualTo(e.statements());
          // The pool's own liveness check of a connection idle for more than 500 ms is an empty
          // query; it is not the store's and is left out.
          List<String> server = c.server().stream().filter(q -> !q.isBlank()).toList();
          assertThat(server)
              .as(name + ": server statements, no connection setup")
              .hasSize(e.statements().size() + (write ? 2 : 0))
              .noneMatch(q -> q.startsWith("SET application_name"));
        });
  }

  private static DispatchReceipt dispatch(Loopx host) {
    DispatchReceipt r =
        host.dispatch(
            FleetLifecycleTest.request().input(FleetLifecycleTest.REQUEST).build(), Mode.EXECUTE);
    assertThat(r.ok()).as(r.toJson().toString()).isTrue();
    return r;
  }
}
