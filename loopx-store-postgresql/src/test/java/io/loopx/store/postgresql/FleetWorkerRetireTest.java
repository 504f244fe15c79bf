package io.loopx.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changes made elsewhere retire workers too (docs/contract/worker.md#lifecycle-changes), across
 * hosts: host A (this JVM, a {@link Loopx} on the shared PostgreSQL store) commits a lifecycle
 * change while host B (a {@link HostMain} child JVM, its own store and {@code Loopx} on the same
 * schema) has a live warm worker of the extension. B's worker process must be gone within 2 s of
 * A's commit returning, with no request on B: B's workers watch the committed state (one generation
 * query per second while a worker lives). B's next dispatch is refused (disable, uninstall: {@code
 * resolution_failed}, no enabled provider) or served by the new revision on a new worker (upgrade),
 * and B itself goes on. Both hosts run the same package directory (identical bytes at the same
 * path, so A's doctor proof covers B); the provider is the standard-library Python worker {@code
 * worker.py} (test resource).
 *
 * <p>The watch's cost: {@link #theWatchQueriesOnlyWhileAWorkerLives} counts the store reads of a
 * host (one generation query each on PostgreSQL): once a second while its worker lives, none once
 * the worker went idle.
 *
 * <p>Count: {@code -Dloopx.reliability.fleetRetires} (default 6; the {@code reliability} profile
 * runs 100): changes committed by A cycling disable, upgrade and disable + uninstall, each timed
 * from A's return from the commit to the exit of B's worker (seen in {@code /proc}); the summary
 * goes to {@code target/reliability/fleet-worker-retire.txt}.
 */
class FleetWorkerRetireTest {
  static final ExtensionId ID = ExtensionId.of("warm-recall");
  static final Duration BOUND = Duration.ofSeconds(2);
  static final Duration SAFETY = Duration.ofSeconds(30);

  /** The workers' watch interval: {@code Workers.WATCH_INTERVAL} (not exported to this module). */
  static final Duration WATCH_INTERVAL = Duration.ofSeconds(1);

  static final int RETIRES = Integer.getInteger("loopx.reliability.fleetRetires", 6);

  /**
   * B's refusal of a dispatch after a disable or uninstall committed before it: B's catalog, read
   * from the shared state, has no provider for the capability any more (docs/contract/lifecycle.md:
   * a dispatch after a disable fails {@code extension_disabled}, {@code not_installed} or {@code
   * resolution_failed}; with the commit before the dispatch it is the last).
   */
  static final String NO_PROVIDER =
      "resolution_failed no enabled, doctor-ready extension implements demo-recall";

  @TempDir Path tmp;

  /** What B's dispatch was served by: its worker's pid and the revision the worker runs. */
  record Served(long pid, String revision) {}

  @Test
  void aDisableOnHostAEndsHostBsWarmWorkerWithinTwoSeconds() throws Exception {
    Path pkg = write(tmp.resolve("warm"), "1.0.0");
    try (Fleet fleet = new Fleet();
        PostgresActivationStore storeA = PostgresActivationStore.of(fleet.dataSource);
        Loopx a = HostMain.loopx(storeA)) {
      assertThat(a.install(load(pkg), Mode.EXECUTE).ok()).isTrue();
      HostJvm b = fleet.start(tmp, 1, 1000).get(0);
      Served warm = workerOf(b, "first");
      assertThat(dispatch(b, "second").pid()).as("one warm worker").isEqualTo(warm.pid());

      assertThat(a.disable(ID, Mode.EXECUTE).ok()).isTrue();
      long committed = System.nanoTime();

      Duration took = awaitGone(warm.pid(), committed);
      assertThat(took)
          .as("host B's worker %d outlived A's disable", warm.pid())
          .isLessThanOrEqualTo(BOUND);
      assertThat(b.alive()).as("host B goes on").isTrue();
      assertThat(refusal(b, "after")).startsWith(NO_PROVIDER);
      assertThat(b.alive()).isTrue();
    }
  }

  @Test
  void anUpgradeOnHostAEndsHostBsOldWorkerAndBServesTheNewRevision() throws Exception {
    Path pkg = write(tmp.resolve("warm"), "1.0.0");
    try (Fleet fleet = new Fleet();
        PostgresActivationStore storeA = PostgresActivationStore.of(fleet.dataSource);
        Loopx a = HostMain.loopx(storeA)) {
      assertThat(a.install(load(pkg), Mode.EXECUTE).ok()).isTrue();
      HostJvm b = fleet.start(tmp, 1, 1000).get(0);
      Served old = workerOf(b, "first");

      manifest(pkg, "1.1.0");
      assertThat(a.upgrade(load(pkg), Mode.EXECUTE).ok()).isTrue();
      long committed = System.nanoTime();

      Duration took = awaitGone(old.pid(), committed);
      assertThat(took)
          .as("host B's worker %d of the old revision outlived A's upgrade", old.pid())
          .isLessThanOrEqualTo(BOUND);
      assertThat(b.alive()).as("host B goes on").isTrue();
      String upgraded = a.state().get(ID).orElseThrow().activeRevision().value();
      assertThat(upgraded).isNotEqualTo(old.revision());
      Served next = workerOf(b, "after");
      assertThat(next.revision()).isEqualTo(upgraded);
      assertThat(next.pid()).isNotEqualTo(old.pid());
    }
  }

  @Test
  void commitOnHostAToWorkerExitOnHostBIsTimed() throws Exception {
    Path pkg = write(tmp.resolve("warm"), "1.0.0");
    long[] latencies = new long[RETIRES];
    int disables = 0;
    int upgrades = 0;
    int uninstalls = 0;
    try (Fleet fleet = new Fleet();
        PostgresActivationStore storeA = PostgresActivationStore.of(fleet.dataSource);
        Loopx a = HostMain.loopx(storeA)) {
      assertThat(a.install(load(pkg), Mode.EXECUTE).ok()).isTrue();
      HostJvm b = fleet.start(tmp, 1, 1000).get(0);
      for (int i = 0; i < RETIRES; i++) {
        Served warm = workerOf(b, "r" + i);
        int kind = i % 3;
        if (kind == 1) {
          manifest(pkg, "1." + (i + 1) + ".0");
          assertThat(a.upgrade(load(pkg), Mode.EXECUTE).ok()).isTrue();
        } else if (kind == 0) {
          assertThat(a.disable(ID, Mode.EXECUTE).ok()).isTrue();
        } else {
          assertThat(a.disable(ID, Mode.EXECUTE).ok()).isTrue();
          assertThat(a.uninstall(ID, Mode.EXECUTE).ok()).isTrue();
        }
        long committed = System.nanoTime();
        Duration took = awaitGone(warm.pid(), committed);
        latencies[i] = took.toNanos();
        assertThat(took)
            .as("change %d (%s) left host B's worker %d", i, kind, warm.pid())
            .isLessThanOrEqualTo(BOUND);
        assertThat(b.alive()).as("host B goes on").isTrue();
        // B's next dispatch sees the change; then back to one enabled revision.
        if (kind == 1) {
          upgrades++;
          Served next = workerOf(b, "after" + i);
          assertThat(next.revision()).isNotEqualTo(warm.revision());
        } else if (kind == 0) {
          disables++;
          assertThat(refusal(b, "after" + i)).startsWith(NO_PROVIDER);
          assertThat(a.enable(ID, Mode.EXECUTE).ok()).isTrue();
        } else {
          uninstalls++;
          assertThat(refusal(b, "after" + i)).startsWith(NO_PROVIDER);
          assertThat(a.install(load(pkg), Mode.EXECUTE).ok()).isTrue();
        }
      }
    }
    Fleet.report(
        "fleet-worker-retire",
        String.format(
            "fleet-worker-retire: commit returned on host A -> host B's warm worker gone (no"
                + " request on B), %d changes (%d disables, %d upgrades, %d disable + uninstall):"
                + " %s; bound %d ms",
            RETIRES,
            disables,
            upgrades,
            uninstalls,
            Fleet.percentiles(latencies),
            BOUND.toMillis()));
  }

  @Test
  void theWatchQueriesOnlyWhileAWorkerLives() throws Exception {
    Path pkg = write(tmp.resolve("warm"), "1.0.0");
    manifest(pkg, "1.0.0", "idle_seconds = 5\n");
    Duration interval = WATCH_INTERVAL;
    try (Fleet fleet = new Fleet();
        PostgresActivationStore store = PostgresActivationStore.of(fleet.dataSource)) {
      ReadCounting counted = new ReadCounting(store);
      try (Loopx host = HostMain.loopx(counted)) {
        assertThat(host.install(load(pkg), Mode.EXECUTE).ok()).isTrue();
        DispatchReceipt receipt =
            host.dispatch(
                FleetLifecycleTest.request()
                    .input("{\"tag\":\"one\"}".getBytes(StandardCharsets.UTF_8))
                    .build(),
                Mode.EXECUTE);
        long worker = receipt.outcome().providerResult().orElseThrow().get("pid").longValue();
        int before = counted.reads.get();
        // While the worker lives (5 s idle), the watch reads the state once a second.
        long end = System.nanoTime() + SAFETY.toNanos();
        while (counted.reads.get() < before + 2 && System.nanoTime() - end < 0) {
          Thread.sleep(5); // poll pacing
        }
        assertThat(counted.reads.get())
            .as("reads while the worker lives")
            .isGreaterThan(before + 1);
        awaitGone(worker, System.nanoTime());
        // Nothing more once it went idle: a watch under way when it exited may still finish, then
        // three intervals must pass without a read. (A window for an absence, not a
        // synchronisation.)
        Thread.sleep(interval.toMillis() * 3 / 2);
        int idle = counted.reads.get();
        Thread.sleep(interval.toMillis() * 3);
        assertThat(counted.reads.get()).as("reads once no worker lives").isEqualTo(idle);
      }
    }
  }

  /** A store that counts {@link #read()} calls (the watch's only call). */
  static final class ReadCounting implements ActivationStore {
    final AtomicInteger reads = new AtomicInteger();
    private final ActivationStore store;

    ReadCounting(ActivationStore store) {
      this.store = store;
    }

    @Override
    public ActivationState read() {
      reads.incrementAndGet();
      return store.read();
    }

    @Override
    public Optional<ExtensionRecord> entry(ExtensionId id) {
      return store.entry(id);
    }

    @Override
    public ActivationState update(String operation, List<EntryChange> changes) {
      return store.update(operation, changes);
    }
  }

  /** Dispatches on {@code host} and checks the worker that served it is the host's child. */
  private static Served workerOf(HostJvm host, String tag) throws InterruptedException {
    Served served = dispatch(host, tag);
    assertThat(
            ProcessHandle.of(host.pid())
                .orElseThrow()
                .descendants()
                .anyMatch(p -> p.pid() == served.pid()))
        .as("worker %d runs under host %d", served.pid(), host.pid())
        .isTrue();
    return served;
  }

  private static Served dispatch(HostJvm host, String tag) throws InterruptedException {
    host.send("dispatch " + tag);
    String line = host.reply();
    String[] words = line.split(" ");
    if (!words[0].equals("served")) {
      throw new AssertionError("dispatch " + tag + " was not served: " + line);
    }
    return new Served(Long.parseLong(words[1]), words[2]);
  }

  /** Dispatches on {@code host}, expecting a refusal; returns its error kind and message. */
  private static String refusal(HostJvm host, String tag) throws InterruptedException {
    host.send("dispatch " + tag);
    String line = host.reply();
    assertThat(line).as("dispatch " + tag).startsWith("failed ");
    return line.substring("failed ".length());
  }

  /**
   * Polls {@code /proc} until {@code pid} is gone (safety net {@link #SAFETY}); returns the time
   * from {@code since}.
   */
  private static Duration awaitGone(long pid, long since) throws InterruptedException {
    long end = since + SAFETY.toNanos();
    while (!gone(pid)) {
      if (System.nanoTime() - end > 0) {
        throw new AssertionError("worker " + pid + " still runs " + SAFETY + " after the commit");
      }
      Thread.sleep(2); // poll pacing, not a synchronisation
    }
    return Duration.ofNanos(System.nanoTime() - since);
  }

  /**
   * Whether nothing runs under {@code pid} any more: no such process, or a zombie (killed, not yet
   * reaped by its parent).
   */
  static boolean gone(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state == 'Z' || state == 'X';
    } catch (IOException e) {
      return true;
    }
  }

  /** Writes the worker package under {@code dir}: {@code worker.py} and its manifest. */
  static Path write(Path dir, String version) throws IOException {
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/worker");
    try (InputStream in =
        Objects.requireNonNull(
            FleetWorkerRetireTest.class.getResourceAsStream(
                "/io/loopx/store/postgresql/worker.py"))) {
      Files.write(script, in.readAllBytes());
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    manifest(dir, version);
    return dir;
  }

  /** Rewrites the manifest (a new version is a new revision; the launcher's bytes stay). */
  static void manifest(Path dir, String version) throws IOException {
    manifest(dir, version, "");
  }

  /** Rewrites the manifest with {@code workerKeys} in its {@code [runtime.worker]} table. */
  static void manifest(Path dir, String version, String workerKeys) throws IOException {
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \""
            + ID
            + "\"\nversion = \""
            + version
            + "\"\nrequires_loopx_api = \">=1,<2\"\npermissions = [\"demo.read\"]\n"
            + "[runtime]\nprotocol = \"demo_recall_v0\"\nentrypoint = \"bin/worker\"\n"
            + "doctor_args = [\"--doctor\"]\nrequired_permissions = [\"demo.read\"]\n"
            + "timeout_seconds = 30\n"
            + "[runtime.worker]\n"
            + workerKeys
            + "\n[[implements]]\ncapability_id = \"demo-recall\"\nprotocol = \"demo_recall_v0\"\n");
  }

  static LoadedManifest load(Path dir) {
    return LoadedManifest.load(dir.resolve("extension.toml"));
  }
}
