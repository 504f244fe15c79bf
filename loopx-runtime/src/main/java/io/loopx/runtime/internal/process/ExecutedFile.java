package io.loopx.runtime.internal.process;

import io.loopx.runtime.internal.isolation.Bubblewrap;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The prevention half of docs/threat-model.md, P2: right after the start, before stdin is written,
 * the file the kernel executes for the process ({@code /proc/<pid>/exe}, which names the inode even
 * after a rename over the path) must be the file that was hashed, unchanged.
 *
 * <p>The process starts as one of the launcher's own stages ({@code setsid}, the cgroup v2
 * trampoline's {@code sh} and {@code env}, {@code env} of a {@code #!/usr/bin/env NAME} line, the
 * JDK's {@code jspawnhelper}), each of which {@code exec}s the next in place; the check waits
 * through those stages (they take microseconds) and decides on the first other file: the expected
 * one passes; other bytes at the hashed path (renamed over it, or changed in place) are a mismatch;
 * a program at another path is left undecided, because a provider may {@code exec} onward before
 * the check sees it (the detection after the run covers that case). The first stage is recognised
 * by its command line (the launched argv), so that a provider whose interpreter is itself a stage
 * program (a {@code #!/bin/sh} script under the {@code sh} trampoline) is checked only once it
 * really runs. Immutable and thread-safe.
 */
final class ExecutedFile {
  /**
   * How long a process may stay in the launcher's stages: each {@code exec}s the next at once, so a
   * process still in one after this is running something else (for example an unproven script whose
   * interpreter is {@code sh}).
   */
  static final Duration STAGE_BOUND = Duration.ofSeconds(2);

  private static final int SPINS = 10_000;
  private static final long PARK_NANOS = 20_000;

  private final Set<String> stageKeys;
  private final boolean available;

  private ExecutedFile(Set<String> stageKeys, boolean available) {
    this.stageKeys = Set.copyOf(stageKeys);
    this.available = available;
  }

  /** The check with {@code stages} as the programs a process may pass through before its own. */
  static ExecutedFile of(List<Path> stages) {
    Set<String> keys = new HashSet<>();
    for (Path stage : stages) {
      try {
        FileStamp.read(stage).ifPresent(s -> keys.add(s.key()));
      } catch (IOException | RuntimeException e) {
        // An unreadable stage cannot be recognised: a process seen in it is a mismatch.
      }
    }
    return new ExecutedFile(keys, Files.exists(Path.of("/proc/self/exe")));
  }

  /**
   * The stage programs of this JVM: {@code setsid}, {@code sh}, {@code env}, jspawnhelper, and the
   * isolation tool's {@code setpriv} and {@code bwrap} at their fixed paths.
   */
  static ExecutedFile forThisJvm() {
    List<Path> stages =
        new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "lib", "jspawnhelper")));
    for (String tool : List.of("setsid", "sh", "env")) {
      LaunchSupport.findTool(tool).ifPresent(stages::add);
    }
    stages.add(Bubblewrap.SETPRIV);
    stages.add(Bubblewrap.BWRAP);
    return of(stages);
  }

  /**
   * Returns the first child of the first child of {@code pid} (an isolated provider under
   * bubblewrap and its reaper), waiting for it no longer than {@link #STAGE_BOUND} and not past
   * {@code deadlineNanos}; empty when {@code pid} ended first, {@code /proc} lacks {@code
   * children}, or the bound passed.
   */
  static OptionalLong grandchild(long pid, long deadlineNanos) {
    long start = System.nanoTime();
    long bound = Math.min(deadlineNanos - start, STAGE_BOUND.toNanos());
    for (int round = 0; ; round++) {
      OptionalLong child = firstChild(pid);
      if (child.isPresent()) {
        OptionalLong grand = firstChild(child.getAsLong());
        if (grand.isPresent()) {
          return grand;
        }
      }
      if (!Files.exists(Path.of("/proc", Long.toString(pid)))
          || System.nanoTime() - start >= bound) {
        return OptionalLong.empty();
      }
      if (round < SPINS) {
        Thread.onSpinWait();
      } else {
        LockSupport.parkNanos(PARK_NANOS);
      }
    }
  }

  private static OptionalLong firstChild(long pid) {
    String p = Long.toString(pid);
    try {
      String text = Files.readString(Path.of("/proc", p, "task", p, "children")).trim();
      if (text.isEmpty()) {
        return OptionalLong.empty();
      }
      int space = text.indexOf(' ');
      return OptionalLong.of(Long.parseLong(space < 0 ? text : text.substring(0, space)));
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /** What the check found. */
  sealed interface Verdict {
    /** The process executes the expected file: it gets its request. */
    record Verified() implements Verdict {}

    /**
     * Not decided here, so the detection after the run decides (docs/threat-model.md): the process
     * ended before it could be checked, {@code /proc} is missing, or it already executes a program
     * at another path (a provider that {@code exec}s onward, such as a shell script that execs
     * {@code python3}, is not told apart from other bytes that do).
     *
     * @param why a short reason, for tests and logs
     */
    record Undecided(String why) implements Verdict {}

    /**
     * The process executes other bytes at the hashed path: another inode renamed over it, or the
     * same inode changed since the hash. It is killed before it gets its request.
     *
     * @param reason what was found
     */
    record Mismatch(String reason) implements Verdict {}
  }

  /**
   * Checks process {@code pid}, started as {@code launched}, against {@code expected}, waiting
   * through the launcher's stages no longer than {@link #STAGE_BOUND} and not past {@code
   * deadlineNanos} ({@link System#nanoTime()}).
   */
  Verdict check(long pid, FileStamp expected, List<String> launched, long deadlineNanos) {
    if (!available) {
      return new Verdict.Undecided("no /proc");
    }
    Path proc = Path.of("/proc", Long.toString(pid));
    Path exe = proc.resolve("exe");
    byte[] first = commandLine(launched);
    long start = System.nanoTime();
    long bound = Math.min(deadlineNanos - start, STAGE_BOUND.toNanos());
    for (int round = 0; ; round++) {
      Optional<FileStamp> now;
      try {
        now = FileStamp.read(exe);
      } catch (IOException | RuntimeException e) {
        return new Verdict.Undecided("unreadable: " + e.getMessage());
      }
      if (now.isEmpty()) {
        return new Verdict.Undecided("gone");
      }
      if (now.get().sameFileAs(expected)) {
        Optional<Boolean> firstStage = inFirstStage(proc, exe, expected, first);
        if (firstStage.isEmpty()) {
          return new Verdict.Undecided("gone");
        }
        if (!firstStage.get()) {
          return new Verdict.Verified();
        }
      } else if (!stageKeys.contains(now.get().key())) {
        return atHashedPath(exe, expected)
            ? new Verdict.Mismatch(describe(exe, now.get(), expected))
            : new Verdict.Undecided("executes another program");
      }
      if (System.nanoTime() - start >= bound) {
        return new Verdict.Undecided("still in a launcher stage");
      }
      if (round < SPINS) {
        Thread.onSpinWait();
      } else {
        LockSupport.parkNanos(PARK_NANOS);
      }
    }
  }

  /** Whether {@code exe} names the expected file's path (as named, or its target now). */
  private static boolean atHashedPath(Path exe, FileStamp expected) {
    try {
      Path running = Files.readSymbolicLink(exe);
      if (running.equals(expected.path().toAbsolutePath())) {
        return true;
      }
      return running.equals(expected.path().toRealPath());
    } catch (IOException | RuntimeException e) {
      // The hashed path is gone or unreadable: the detection after the run sees that.
      return false;
    }
  }

  /**
   * Whether the process still runs the launched first stage: its command line, read before and
   * after its executable, is the launched one both times (a command line that changed between the
   * reads is read again); empty when the process is gone.
   */
  private static Optional<Boolean> inFirstStage(
      Path proc, Path exe, FileStamp expected, byte[] first) {
    while (true) {
      try {
        byte[] before = Files.readAllBytes(proc.resolve("cmdline"));
        Optional<FileStamp> now = FileStamp.read(exe);
        byte[] after = Files.readAllBytes(proc.resolve("cmdline"));
        if (now.isEmpty()) {
          return Optional.empty();
        }
        if (Arrays.equals(before, after)) {
          return Optional.of(!now.get().sameFileAs(expected) || Arrays.equals(before, first));
        }
      } catch (IOException | RuntimeException e) {
        return Optional.empty();
      }
    }
  }

  /** The {@code /proc/<pid>/cmdline} bytes of {@code argv}: each argument NUL-terminated. */
  private static byte[] commandLine(List<String> argv) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    String jnu = System.getProperty("sun.jnu.encoding");
    Charset charset =
        jnu != null && Charset.isSupported(jnu) ? Charset.forName(jnu) : Charset.defaultCharset();
    for (String arg : argv) {
      bytes.writeBytes(arg.getBytes(charset));
      bytes.write(0);
    }
    return bytes.toByteArray();
  }

  private static String describe(Path exe, FileStamp now, FileStamp expected) {
    String target;
    try {
      target = Files.readSymbolicLink(exe).toString();
    } catch (IOException | RuntimeException e) {
      target = "?";
    }
    return "the process executes `"
        + target
        + "` ("
        + now.key()
        + "), not the hashed `"
        + expected.path()
        + "` ("
        + expected.key()
        + ") as it was hashed";
  }
}
