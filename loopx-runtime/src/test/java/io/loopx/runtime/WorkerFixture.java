package io.loopx.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * A provider package around the standard-library Python worker {@code worker.py} (test resource),
 * whose behaviour is set by its {@code mode} file, and helpers to watch its processes.
 */
final class WorkerFixture {
  static final ExtensionId ID = ExtensionId.of("warm-recall");

  private WorkerFixture() {}

  /** Writes the package under {@code dir} with {@code workerTable} as {@code [runtime.worker]}. */
  static Path write(Path dir, String version, int timeoutSeconds, String workerTable)
      throws IOException {
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/worker");
    try (InputStream in =
        Objects.requireNonNull(
            WorkerFixture.class.getResourceAsStream("/io/loopx/runtime/worker/worker.py"))) {
      Files.write(script, in.readAllBytes());
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    manifest(dir, version, timeoutSeconds, workerTable);
    return dir;
  }

  /** Rewrites the package's manifest (a new version is a new revision). */
  static void manifest(Path dir, String version, int timeoutSeconds, String workerTable)
      throws IOException {
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
            + "timeout_seconds = "
            + timeoutSeconds
            + "\n"
            + workerTable
            + "\n[[implements]]\ncapability_id = \"demo-recall\"\nprotocol = \"demo_recall_v0\"\n");
  }

  static LoadedManifest load(Path dir) {
    return LoadedManifest.load(dir.resolve("extension.toml"));
  }

  static void mode(Path dir, String mode) throws IOException {
    Files.writeString(dir.resolve("mode"), mode);
  }

  /** A request whose {@code tag} names the marker the worker writes when it receives it. */
  static byte[] request(String tag, String extra) {
    return ("{\"tag\":\"" + tag + "\"" + extra + "}").getBytes(UTF_8);
  }

  static ObjectNode result(DispatchReceipt receipt) {
    return receipt.outcome().providerResult().orElseThrow();
  }

  static long pid(DispatchReceipt receipt) {
    return result(receipt).get("pid").longValue();
  }

  /** Waits (a safety net, not a delay) for {@code condition}. */
  static boolean eventually(Duration bound, BooleanSupplier condition) {
    long end = System.nanoTime() + bound.toNanos();
    while (System.nanoTime() < end) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.onSpinWait();
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return condition.getAsBoolean();
  }

  /** Waits for the worker to note the request tagged {@code tag}. */
  static void awaitSeen(Path dir, String tag) {
    if (!eventually(Duration.ofSeconds(30), () -> Files.exists(dir.resolve("seen").resolve(tag)))) {
      throw new AssertionError("the worker never received request " + tag);
    }
  }

  static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /**
   * Whether nothing runs under {@code pid} any more: no such process, or a zombie (killed and not
   * yet reaped by a parent that may never reap it, such as a container's pid 1).
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

  /** The live descendants of this JVM (workers and anything they started). */
  static List<Long> descendants() {
    return ProcessHandle.current()
        .descendants()
        .filter(ProcessHandle::isAlive)
        .map(ProcessHandle::pid)
        .toList();
  }
}
