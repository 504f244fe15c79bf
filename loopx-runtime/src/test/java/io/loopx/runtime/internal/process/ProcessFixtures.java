package io.loopx.runtime.internal.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Fixtures shared by the process tests: {@code /bin/sh} scripts on disk and {@code /proc} checks.
 */
final class ProcessFixtures {
  /** The complete environment the test processes get. */
  static final Map<String, String> ENV = Map.of("PATH", "/usr/bin:/bin");

  private ProcessFixtures() {}

  /** Writes an executable {@code #!/bin/sh} script of {@code lines} to {@code file}. */
  static Path writeScript(Path file, String... lines) throws IOException {
    Files.writeString(file, "#!/bin/sh\n" + String.join("\n", lines) + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  /** Whether {@code pid} no longer runs (absent from /proc, or a zombie awaiting its reaper). */
  static boolean gone(long pid) {
    return ProcessGroup.readStat(Path.of("/proc", Long.toString(pid)))
        .map(stat -> !stat.live())
        .orElse(true);
  }

  /** The names of the live threads started by {@link OsProcessLauncher}. */
  /** A launcher with a short termination grace (300 ms) and a 2 s drain bound, for tests. */
  static OsProcessLauncher quickLauncher() {
    return OsProcessLauncher.builder()
        .terminationGrace(Duration.ofMillis(300))
        .drainTimeout(Duration.ofSeconds(2))
        .build();
  }

  /** Returns how many runner tasks (drains, stdin feeders, exit waits) are still running. */
  static int runningTasks() {
    return RunnerTasks.running();
  }

  /** Returns the names of the live runner pool threads (busy or idle). */
  static List<String> runnerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.startsWith(OsProcessLauncher.THREAD_NAME_PREFIX))
        .toList();
  }
}
