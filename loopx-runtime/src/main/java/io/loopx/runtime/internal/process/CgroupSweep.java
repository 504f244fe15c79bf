package io.loopx.runtime.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongFunction;

/**
 * Who owns a call cgroup, and the sweep that removes the cgroups of dead hosts.
 *
 * <p>A call cgroup is named {@code loopx-<host pid>-<host start time>-<n>} (the start time is field
 * 22 of {@code /proc/<pid>/stat}, in clock ticks since boot), so that a pid the kernel reused never
 * makes a live host's cgroup look dead: the owner is alive exactly when a process with that pid and
 * that start time runs (a zombie is dead: its files are closed). Names of earlier versions, {@code
 * loopx-<host pid>-<n>}, carry no start time: they are dead when no process has the pid, and left
 * alone otherwise.
 *
 * <p>The sweep runs once per JVM when it chooses its {@link Enclosure} ({@link Cgroups#system()}):
 * in each directory that holds call cgroups, every {@code loopx-*} directory of a dead owner is
 * emptied (v2: {@code cgroup.kill}; v1 {@code freezer}: freeze, SIGKILL to every member, thaw;
 * other hierarchies: SIGKILL to every member) and removed. It never touches this JVM's cgroups, a
 * live owner's, or a name it cannot parse.
 */
final class CgroupSweep {
  private static final String PREFIX = "loopx-";
  private static final Duration KILL_BOUND = Duration.ofSeconds(2);
  private static final Duration FREEZE_BOUND = Duration.ofMillis(100);

  /** This JVM's pid. */
  static final long SELF = ProcessHandle.current().pid();

  /** This JVM's start time (field 22 of {@code /proc/self/stat}); empty when unreadable. */
  static final OptionalLong SELF_START = startTime(SELF);

  private CgroupSweep() {}

  /** The owner a call cgroup's name records; {@code start} is empty in the old scheme. */
  record Owner(long pid, OptionalLong start) {}

  /** What {@code /proc/<pid>/stat} shows: the start time, and whether it is a zombie. */
  record Running(long start, boolean zombie) {}

  /**
   * The name prefix of this JVM's call cgroups: {@code loopx-<pid>-<start time>-}; {@code
   * loopx-<pid>-} (the old scheme, never swept while the pid lives) if the start time is
   * unreadable.
   */
  static String ownPrefix() {
    return SELF_START.isPresent()
        ? PREFIX + SELF + "-" + SELF_START.getAsLong() + "-"
        : PREFIX + SELF + "-";
  }

  /**
   * Parses {@code loopx-<pid>-<start>-<n>} (or {@code -probe}) and the old {@code loopx-<pid>-<n>};
   * empty for any other name.
   */
  static Optional<Owner> parse(String name) {
    if (!name.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String[] parts = name.substring(PREFIX.length()).split("-", -1);
    if (parts.length < 2 || parts.length > 3) {
      return Optional.empty();
    }
    String suffix = parts[parts.length - 1];
    if (!(digits(suffix) || suffix.equals("probe"))) {
      return Optional.empty();
    }
    OptionalLong pid = number(parts[0]);
    if (pid.isEmpty() || pid.getAsLong() <= 0) {
      return Optional.empty();
    }
    if (parts.length == 2) {
      return Optional.of(new Owner(pid.getAsLong(), OptionalLong.empty()));
    }
    OptionalLong start = number(parts[1]);
    return start.isPresent() ? Optional.of(new Owner(pid.getAsLong(), start)) : Optional.empty();
  }

  /**
   * Whether {@code owner} is dead, given what runs under its pid ({@code running}, empty when no
   * such process): no process, a zombie, or (when the name records one) another start time.
   */
  static boolean dead(Owner owner, Optional<Running> running) {
    if (running.isEmpty() || running.get().zombie()) {
      return true;
    }
    return owner.start().isPresent() && owner.start().getAsLong() != running.get().start();
  }

  /** Reads the start time of {@code pid} (field 22 of its {@code stat}). */
  static OptionalLong startTime(long pid) {
    return running(pid).map(r -> OptionalLong.of(r.start())).orElse(OptionalLong.empty());
  }

  /** Reads {@code /proc/<pid>/stat}: empty when no such process. */
  static Optional<Running> running(long pid) {
    try {
      String stat =
          new String(
              Files.readAllBytes(Path.of("/proc", Long.toString(pid), "stat")),
              StandardCharsets.US_ASCII);
      // The command name (field 2) may hold spaces and parentheses: fields 3.. follow the last ')'.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      char state = fields[0].charAt(0);
      return Optional.of(new Running(Long.parseLong(fields[19]), state == 'Z' || state == 'X'));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Sweeps the call cgroups of dead hosts under each of {@code parents}; returns those removed. */
  static List<Path> sweep(List<Path> parents) {
    return sweep(parents, CgroupSweep::running);
  }

  /** As {@link #sweep(List)}, with {@code proc} telling what runs under a pid (a test seam). */
  static List<Path> sweep(List<Path> parents, LongFunction<Optional<Running>> proc) {
    List<Path> removed = new ArrayList<>();
    for (Path parent : parents) {
      List<Path> dead = new ArrayList<>();
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent, PREFIX + "*")) {
        for (Path dir : entries) {
          Optional<Owner> owner = parse(dir.getFileName().toString());
          if (owner.isPresent()
              && owner.get().pid() != SELF
              && Files.isDirectory(dir)
              && dead(owner.get(), proc.apply(owner.get().pid()))) {
            dead.add(dir);
          }
        }
      } catch (IOException | RuntimeException e) {
        continue; // an unreadable parent is left as it is
      }
      for (Path dir : dead) {
        if (empty(dir)) {
          removed.add(dir);
        }
      }
    }
    return removed;
  }

  /**
   * Kills every member of the cgroup {@code dir} and removes it, retrying up to a bound; false if
   * it is still there. Never signals this JVM.
   */
  static boolean empty(Path dir) {
    return ProcessGroup.pollUntil(
        KILL_BOUND,
        () -> {
          killMembers(dir);
          return CallCgroup.removeQuietly(dir) && !Files.exists(dir);
        });
  }

  private static void killMembers(Path dir) {
    Path procs = dir.resolve("cgroup.procs");
    if (!Files.exists(procs) || members(procs).isEmpty()) {
      return;
    }
    Path kill = dir.resolve("cgroup.kill");
    if (Files.exists(kill)) {
      CallCgroup.writeQuietly(kill, "1");
      return;
    }
    Path state = dir.resolve("freezer.state");
    boolean freezer = Files.exists(state);
    if (freezer) {
      CallCgroup.writeQuietly(state, "FROZEN");
      ProcessGroup.pollUntil(FREEZE_BOUND, () -> CallCgroup.read(state).startsWith("FROZEN"));
    }
    try {
      for (long pid : members(procs)) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    } finally {
      if (freezer) {
        CallCgroup.writeQuietly(state, "THAWED");
      }
    }
  }

  private static List<Long> members(Path procs) {
    List<Long> pids = new ArrayList<>();
    for (long pid : CallCgroup.readIds(procs)) {
      if (pid != SELF) {
        pids.add(pid);
      }
    }
    return pids;
  }

  private static boolean digits(String text) {
    if (text.isEmpty() || text.length() > 19) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static OptionalLong number(String text) {
    if (!digits(text)) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(text));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
