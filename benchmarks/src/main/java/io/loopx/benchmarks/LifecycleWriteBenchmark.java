package io.loopx.benchmarks;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.internal.state.FileActivationStore;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.state.EntryChange;
import io.loopx.runtime.state.ExtensionRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * An executed lifecycle write on a real on-disk directory (not Jimfs: the fsyncs are the point).
 *
 * <p>{@code loopxExecutedWrite}: {@link Loopx#disable} in {@link Mode#EXECUTE} of an installed,
 * enabled, doctor-ready extension (a shell-script provider installed once in setup). Disable runs
 * no probe, so this is the whole executed write path: read and validate the state, plan, take the
 * state lock, re-read and compare-and-set, encode, write a 0600 temp file, fsync it, atomically
 * rename it over {@code state.json}, fsync the directory, release the lock, and publish the
 * registry generation of the new state. Before every invocation (untimed) the extension is enabled
 * again through the store's compare-and-set, with the same proof, so it stays doctor-fresh.
 *
 * <p>{@code baselineAtomicFsyncWrite}: the minimum durable replace of the same bytes (the state
 * file LoopX writes after the disable, captured in setup): create a temp file, write, {@code
 * FileChannel.force(true)}, {@code ATOMIC_MOVE} over the target, fsync the directory. Before every
 * invocation (untimed) it rewrites the target the same way, so both sides run after an equal
 * untimed durable write.
 *
 * <p>Target: LoopX / baseline &lt;= 1.5.
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LifecycleWriteBenchmark {
  static final ExtensionId ID = ExtensionId.of("bench-writer");

  /** The LoopX side: an installed extension, re-enabled before every invocation. */
  @State(Scope.Benchmark)
  public static class LoopxSide {
    Path dir;
    Loopx loopx;
    FileActivationStore store;
    ExtensionRecord enabled;
    ExtensionRecord disabled;

    /** Installs the extension (one doctor probe) and records its enabled and disabled records. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
      dir = traversableTempDirectory("loopx-bench-write");
      Path pkg = providerPackage(dir);
      Path stateFile = dir.resolve("root").resolve("extensions").resolve("state.json");
      loopx = Loopx.builder().stateFile(stateFile).hostEnvironment(hostEnvironment()).build();
      loopx.install(LoadedManifest.load(pkg.resolve("extension.toml")), Mode.EXECUTE);
      store = FileActivationStore.at(stateFile);
      enabled = store.read().installed(ID);
      disabled = ExtensionRecords.withEnabled(enabled, false);
      if (!enabled.enabled() || !loopx.list().extensions().get(0).doctorVerified()) {
        throw new IllegalStateException("install did not leave an enabled, doctor-ready extension");
      }
    }

    /** Enables the extension again through the store (same proof: it stays doctor-ready). */
    @Setup(Level.Invocation)
    public void reEnable() {
      ExtensionRecord current = store.read().installed(ID);
      if (!current.enabled()) {
        store.update(
            "enable", List.of(new EntryChange(ID, Optional.of(current), Optional.of(enabled))));
      }
    }

    /** Removes the temp tree. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      deleteTree(dir);
    }
  }

  /** The baseline side: the same bytes, durably replaced. */
  @State(Scope.Benchmark)
  public static class BaselineSide {
    Path dir;
    Path target;
    byte[] enabledBytes;
    byte[] disabledBytes;
    long counter;

    /** Captures the state file bytes LoopX writes for the enabled and the disabled extension. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
      LoopxSide loopx = new LoopxSide();
      loopx.setUp();
      try {
        Path stateFile = loopx.store.stateFile();
        enabledBytes = Files.readAllBytes(stateFile);
        loopx.loopx.disable(ID, Mode.EXECUTE);
        disabledBytes = Files.readAllBytes(stateFile);
      } finally {
        loopx.tearDown();
      }
      dir = Files.createTempDirectory("loopx-bench-write-baseline");
      target = dir.resolve("state.json");
      atomicFsyncWrite(enabledBytes);
    }

    /** Rewrites the enabled bytes durably, mirroring the LoopX side's untimed re-enable. */
    @Setup(Level.Invocation)
    public void reset() throws IOException {
      atomicFsyncWrite(enabledBytes);
    }

    /** Removes the temp tree. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      deleteTree(dir);
    }

    Path atomicFsyncWrite(byte[] bytes) throws IOException {
      Path temp = dir.resolve(".state.json.tmp." + counter++);
      try (FileChannel channel =
          FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
      try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
        directory.force(true);
      }
      return target;
    }
  }

  /** LoopX: executed {@code disable} through the facade (no probe). */
  @Benchmark
  public LifecycleReceipt loopxExecutedWrite(LoopxSide side) {
    LifecycleReceipt receipt = side.loopx.disable(ID, Mode.EXECUTE);
    if (!receipt.changed()) {
      throw new IllegalStateException("disable changed nothing");
    }
    return receipt;
  }

  /** Baseline: temp file, write, fsync, atomic rename, directory fsync of the same bytes. */
  @Benchmark
  public Path baselineAtomicFsyncWrite(BaselineSide side) throws IOException {
    return side.atomicFsyncWrite(side.disabledBytes);
  }

  static Map<String, String> hostEnvironment() {
    return Map.of("PATH", "/usr/bin:/bin");
  }

  /**
   * Creates a temp directory that an isolated provider can traverse: the package is a standalone
   * extension, which a host without an isolation policy runs isolated where bubblewrap is usable,
   * as an unprivileged uid on a root host (docs/process.md#isolation).
   */
  static Path traversableTempDirectory(String prefix) throws IOException {
    Path dir = Files.createTempDirectory(prefix);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    return dir;
  }

  /** Writes a provider package whose doctor ({@code --doctor}) exits 0. */
  static Path providerPackage(Path root) throws IOException {
    Path pkg = root.resolve("pkg");
    Files.createDirectories(pkg.resolve("bin"));
    Path script = pkg.resolve("bin/provider");
    Files.writeString(script, "#!/bin/sh\n[ \"$1\" = \"--doctor\" ] && exit 0\ncat\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        pkg.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \""
            + ID.value()
            + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + "[runtime]\nprotocol = \"bench_echo_v0\"\nentrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\n");
    return pkg;
  }

  static void deleteTree(Path root) throws IOException {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
