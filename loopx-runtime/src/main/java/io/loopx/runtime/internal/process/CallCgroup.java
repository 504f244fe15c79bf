package io.loopx.runtime.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cgroup of one provider call. The provider is inside it before it can fork, every descendant
 * is born inside it, and no member can leave it without a root write to another cgroup, so "the
 * cgroup is empty" is a fact that no fork, pid change, {@code setpgid} or {@code setsid} can hide.
 *
 * <p>Termination: SIGTERM to every member (a courtesy), up to the grace for the cgroup to empty,
 * then the atomic kill of the mechanism ({@link CallCgroupV1}: freeze, SIGKILL to every member,
 * thaw; {@link CallCgroupV2}: {@code cgroup.kill}), repeated until the cgroup is empty or a safety
 * bound passes. Then {@link #remove()} deletes the directories. This JVM is never signalled: its
 * pid is skipped, and a JVM thread that ended up inside (see {@link CallCgroupV1#start}) is moved
 * back first.
 *
 * <p>Memory: where the mechanism has a memory controller and the call has a limit, the cgroup is
 * limited to that many bytes of memory, and of memory plus swap together where the kernel accounts
 * swap (so a capped provider cannot swap instead); the kernel's OOM killer then kills a member that
 * would cross it, which {@link #killedForMemory} reads from the controller's own counter.
 *
 * <p>Not thread-safe: one call owns it.
 */
abstract sealed class CallCgroup permits CallCgroupV1, CallCgroupV2 {
  static final long SELF = ProcessHandle.current().pid();

  private static final AtomicLong SEQUENCE = new AtomicLong();
  private static final Duration KILL_BOUND = Duration.ofSeconds(5);
  private static final Duration KILL_RETRY = Duration.ofMillis(250);
  private static final Duration REMOVE_BOUND = Duration.ofSeconds(2);
  private static final Path THREAD_SELF = Path.of("/proc/thread-self");
  static final Path OWN_TASKS = Path.of("/proc/self/task");

  private static final ThreadLocal<OptionalLong> THREAD_ID =
      ThreadLocal.withInitial(CallCgroup::readThreadId);

  /**
   * A directory name owned by this JVM: {@code loopx-<pid>-<start time>-<suffix>} ({@link
   * CgroupSweep}: the start time tells a dead host's cgroups from a live one's that reused its
   * pid).
   */
  static String name(String suffix) {
    return CgroupSweep.ownPrefix() + suffix;
  }

  /** Creates a fresh {@code loopx-<pid>-<start time>-<n>} directory under {@code parent}. */
  static Path createUnder(Path parent) throws IOException {
    while (true) {
      Path dir = parent.resolve(name(Long.toString(SEQUENCE.incrementAndGet())));
      try {
        return Files.createDirectory(dir);
      } catch (FileAlreadyExistsException e) {
        // Left by an earlier JVM with the same pid: take the next number.
      }
    }
  }

  /** Returns the kernel's id of the calling thread, when {@code /proc/thread-self} shows it. */
  static OptionalLong currentThreadId() {
    return THREAD_ID.get();
  }

  private static OptionalLong readThreadId() {
    try {
      String link = Files.readSymbolicLink(THREAD_SELF).toString();
      return OptionalLong.of(Long.parseLong(link.substring(link.lastIndexOf('/') + 1)));
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /** Returns what {@code builder} must run: {@code command} itself or a trampoline around it. */
  abstract List<String> command(List<String> command, Map<String, String> environment);

  /** Whether the process gets the request's environment directly (else through the command). */
  abstract Map<String, String> processEnvironment(Map<String, String> environment);

  /** Starts {@code builder} so that the child is inside this cgroup before it runs anything. */
  abstract Process start(ProcessBuilder builder) throws IOException;

  /** Sends SIGKILL to every member atomically (one round). */
  abstract void killAll();

  /** Deletes the cgroup's directories; false if one could not be deleted. */
  abstract boolean removeDirectories();

  /** The file listing the member processes. */
  abstract Path procs();

  /**
   * Every directory of this cgroup, one per hierarchy it was created in: what a {@link Keeper}
   * empties and removes when the host dies. A hierarchy added to the call cgroup must be listed
   * here.
   */
  abstract List<Path> directories();

  /** The memory limit applied to this cgroup in bytes, empty when none applies. */
  abstract OptionalLong memoryLimit();

  /**
   * Whether the memory controller killed a member of this cgroup (its {@code oom_kill} counter is
   * above 0); read before {@link #remove()}. Where the kernel has no such counter (cgroup v1 before
   * Linux 4.13), whether the limit was hit ({@code memory.failcnt}) and {@code leaderKilled}, the
   * leader died of SIGKILL that LoopX did not send. False without a memory limit.
   */
  abstract boolean killedForMemory(boolean leaderKilled);

  /** Reads the counter {@code name} of a flat-keyed file ({@code name value} lines), or -1. */
  static long counter(Path file, String name) {
    for (String line : read(file).split("\n")) {
      int space = line.indexOf(' ');
      if (space > 0 && line.substring(0, space).equals(name)) {
        try {
          return Long.parseLong(line.substring(space + 1).trim());
        } catch (NumberFormatException e) {
          return -1;
        }
      }
    }
    return -1;
  }

  /** Returns the live member processes except this JVM. */
  final List<Long> members() {
    List<Long> pids = new ArrayList<>();
    for (long pid : readIds(procs())) {
      if (pid != SELF) {
        pids.add(pid);
      }
    }
    return pids;
  }

  /** Whether the leader has exited and the cgroup holds no process (but possibly this JVM). */
  final boolean gone(Process leader) {
    return !leader.isAlive() && members().isEmpty();
  }

  /**
   * Ends everything in the cgroup: nothing when the leader exited by itself and nothing is left;
   * else SIGTERM to every member, up to {@code grace}, then SIGKILL rounds until it is empty.
   */
  final void terminate(Process leader, Duration grace, boolean stopped) {
    if (!stopped && gone(leader)) {
      return;
    }
    for (long pid : members()) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
    }
    if (leader.isAlive()) {
      leader.toHandle().destroy();
    }
    if (ProcessGroup.pollUntil(grace, () -> gone(leader))) {
      return;
    }
    long start = System.nanoTime();
    do {
      killAll();
      if (leader.isAlive()) {
        // Before the v2 trampoline joined the cgroup the leader is not a member yet.
        leader.toHandle().destroyForcibly();
      }
      if (ProcessGroup.pollUntil(KILL_RETRY, () -> gone(leader))) {
        return;
      }
    } while (System.nanoTime() - start < KILL_BOUND.toNanos());
  }

  /**
   * Deletes the cgroup, retrying for a short bound while the kernel still counts exiting members;
   * false if it is still there.
   */
  final boolean remove() {
    return ProcessGroup.pollUntil(REMOVE_BOUND, this::removeDirectories);
  }

  static boolean removeQuietly(Path dir) {
    try {
      Files.deleteIfExists(dir);
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  static void write(Path file, String value) throws IOException {
    Files.write(file, value.getBytes(StandardCharsets.US_ASCII), StandardOpenOption.WRITE);
  }

  static void writeQuietly(Path file, String value) {
    try {
      write(file, value);
    } catch (IOException | RuntimeException e) {
      // Best effort: the caller checks the outcome by reading the cgroup.
    }
  }

  static String read(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII);
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** Reads a {@code cgroup.procs} or {@code tasks} file: one id a line. */
  static List<Long> readIds(Path file) {
    String text = read(file);
    List<Long> ids = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= text.length(); i++) {
      if (i == text.length() || text.charAt(i) == '\n') {
        if (i > start) {
          try {
            ids.add(Long.parseLong(text.substring(start, i).trim()));
          } catch (NumberFormatException e) {
            // Not an id.
          }
        }
        start = i + 1;
      }
    }
    return ids;
  }
}
