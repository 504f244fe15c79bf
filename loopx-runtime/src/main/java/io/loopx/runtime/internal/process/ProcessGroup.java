package io.loopx.runtime.internal.process;

import com.google.common.util.concurrent.Uninterruptibles;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;
import java.util.function.Supplier;

/**
 * The process group (and session) that a provider leads after {@code setsid}: its id is the
 * provider's pid. Knows how to find its live members in {@code /proc} and how to terminate all of
 * them.
 *
 * <p>Signalling: the whole group at once with {@code kill -SIG -- -ID} (the kernel signals every
 * member atomically, so a member cannot fork past it), then, through {@link ProcessHandle} (which
 * checks the start time, so a recycled pid is never hit), every live member of the session that is
 * not in the group (a descendant that moved to another group with {@code setpgid}) and, when the
 * {@code kill} command cannot run, every member. When the group signal reached nobody (for example
 * in the instant before {@code setsid} ran), the leader is signalled through its own handle.
 * Membership is read from {@code /proc/PID/stat}; zombies do not count (they are dead and will be
 * reaped by their parent).
 *
 * <p>A membership check lists {@code /proc} and reads the {@code stat} file of the candidates.
 * After the leader exited by itself (the usual end of a run) the candidates are only the pids
 * allocated since the leader's start, usually none or a few; while anything may be alive, and for
 * runs too long to bound pid reuse, every process is a candidate.
 *
 * <p>Descendants that call {@code setsid} themselves (or double-fork and then do so) are in another
 * session and group, and escape: they are not found and not signalled.
 */
final class ProcessGroup {
  private static final Path PROC = Path.of("/proc");
  private static final Path LAST_PID = PROC.resolve("sys/kernel/ns_last_pid");
  private static final long PID_MAX = readNumber(PROC.resolve("sys/kernel/pid_max")).orElse(-1);
  private static final int STAT_PREFIX = 512;

  /** This JVM's process group; it never changes (LoopX does not call {@code setpgid}). */
  private static final OptionalLong OWN_GROUP = ownGroup();

  private static final Duration KILL_BOUND = Duration.ofSeconds(5);
  private static final Duration KILL_RETRY = Duration.ofMillis(250);
  private static final Duration KILL_COMMAND_BOUND = Duration.ofSeconds(2);
  private static final long MAX_POLL_MILLIS = 16;

  /** One live process whose group or session is ours. */
  record Member(long pid, long group, long session) {}

  private enum Signal {
    TERM,
    KILL;

    void send(ProcessHandle handle) {
      if (this == TERM) {
        handle.destroy();
      } else {
        handle.destroyForcibly();
      }
    }
  }

  /** What {@code kill -SIG -- -ID} achieved. */
  private enum GroupKill {
    /** At least one member of the group was signalled. */
    SIGNALLED,
    /** The command ran but found no member (not yet, or no longer, a group). */
    NO_MEMBER,
    /** The command could not run. */
    FAILED
  }

  private final long id;
  private final Process leader;
  private final Optional<Path> killCommand;
  private final boolean groupSignalAllowed;

  ProcessGroup(Process leader, Optional<Path> killCommand) {
    this.id = leader.pid();
    this.leader = leader;
    this.killCommand = killCommand;
    // Never signal a group that could contain this JVM (defensive: a pgid is the pid of a live
    // group's creator, so the child's pid cannot name our group).
    long self = ProcessHandle.current().pid();
    this.groupSignalAllowed = id > 1 && id != self && OWN_GROUP.orElse(id) != id;
  }

  /**
   * Returns the live (non-zombie) members of the group or session {@code id}, or empty when {@code
   * /proc} cannot be listed.
   */
  static Optional<List<Member>> members(long id) {
    return members(id, () -> pid -> true);
  }

  /**
   * As {@link #members(long)}, reading only the {@code stat} of the pids admitted by the predicate
   * that {@code candidates} gives after the listing.
   */
  private static Optional<List<Member>> members(long id, Supplier<LongPredicate> candidates) {
    String[] names = PROC.toFile().list();
    if (names == null) {
      return Optional.empty();
    }
    LongPredicate candidate = candidates.get();
    byte[] buffer = new byte[STAT_PREFIX];
    List<Member> members = new ArrayList<>();
    for (String name : names) {
      long pid = pidOf(name);
      if (pid < 0 || !candidate.test(pid)) {
        continue;
      }
      Optional<Stat> stat = readStat(PROC + "/" + name + "/stat", buffer);
      if (stat.isPresent()
          && stat.get().live()
          && (stat.get().group() == id || stat.get().session() == id)) {
        members.add(new Member(pid, stat.get().group(), stat.get().session()));
      }
    }
    return Optional.of(List.copyOf(members));
  }

  /**
   * The pids that can belong to a process created after the leader: those allocated since, read
   * after the listing so that every listed member is covered. Linux hands out pids in increasing
   * order, wrapping at {@code pid_max}; a member is forked after the leader, so its pid lies in the
   * cyclic window (leader, last allocated]. The window is only trusted while a full wrap is
   * impossible: when the run took less than one microsecond per pid in the pid space (pids are not
   * allocated that fast); otherwise, or when the kernel does not expose the counters, every pid is
   * a candidate.
   */
  private static LongPredicate allocatedSince(long leader, long startNanos) {
    long last = readNumber(LAST_PID).orElse(-1);
    return allocatedSince(leader, last, PID_MAX, System.nanoTime() - startNanos);
  }

  /** The window of {@link #allocatedSince(long, long)} from the kernel's counters (-1: unknown). */
  static LongPredicate allocatedSince(long leader, long last, long max, long elapsedNanos) {
    if (max <= 0
        || last <= 0
        || last >= max
        || leader >= max
        || elapsedNanos >= TimeUnit.MICROSECONDS.toNanos(max)) {
      return pid -> true;
    }
    long span = Math.floorMod(last - leader, max);
    return pid -> {
      long distance = Math.floorMod(pid - leader, max);
      return distance > 0 && distance <= span;
    };
  }

  /**
   * Terminates everything left. The kernel, not a {@code /proc} snapshot, decides whether the group
   * is empty: {@code kill -TERM -- -ID} is sent to the whole group (atomic against fork for every
   * member, also one that keeps changing its pid) and to the group of every session member that
   * moved to another group; when it reached nobody and the leader is gone, nothing is left. Else,
   * up to {@code grace} for SIGTERM to take effect, then {@code kill -KILL -- -ID} (always sent
   * once after a SIGTERM reached someone: a snapshot that shows nothing may have missed a pid
   * hopper), repeated until the kernel reports the group empty, or until every member was sent
   * SIGKILL and {@code /proc} shows none alive (zombies whose reaper does not reap them keep a
   * group "present" for {@code kill} without running), or a safety bound passes. {@code startNanos}
   * ({@link System#nanoTime()}) is no later than the leader's start.
   *
   * <p>Without the {@code kill} command, members found in {@code /proc} are signalled one by one
   * (not atomic: the limit of this fallback of the fallback).
   */
  void terminate(Duration grace, long startNanos) {
    Optional<List<Member>> found;
    if (leader.isAlive()) {
      found = members(id);
    } else {
      // The usual end of a run: the leader exited by itself; read only the pids allocated since.
      found = members(id, () -> allocatedSince(id, startNanos));
    }
    GroupKill term = signal(Signal.TERM, found.orElse(List.of()));
    if (term == GroupKill.NO_MEMBER && !leader.isAlive() && outsiders(found).isEmpty()) {
      return;
    }
    if (term == GroupKill.FAILED
        && found.isPresent()
        && found.get().isEmpty()
        && !leader.isAlive()) {
      return;
    }
    pollUntil(grace, () -> !alive());
    long start = System.nanoTime();
    do {
      GroupKill kill = signal(Signal.KILL, members(id).orElse(List.of()));
      if (kill == GroupKill.NO_MEMBER && !leader.isAlive() && outsiders(members(id)).isEmpty()) {
        return;
      }
      if (awaitGone(KILL_RETRY)) {
        return;
      }
    } while (System.nanoTime() - start < KILL_BOUND.toNanos());
  }

  /** The members outside the group (moved with {@code setpgid}, still in the session). */
  private List<Member> outsiders(Optional<List<Member>> found) {
    return found.orElse(List.of()).stream().filter(m -> m.group() != id).toList();
  }

  /** Returns whether the leader or any live member of the group or session remains. */
  private boolean alive() {
    if (leader.isAlive()) {
      return true;
    }
    Optional<List<Member>> members = members(id);
    return members.isPresent() && !members.get().isEmpty();
  }

  /**
   * Signals the whole group, the group of every member outside it (a group never spans sessions, so
   * all of it is ours), and, one by one, members the group signal did not cover; returns what the
   * group signal did.
   */
  private GroupKill signal(Signal signal, List<Member> members) {
    GroupKill groupKill = groupSignalAllowed ? runKillCommand(signal, id) : GroupKill.FAILED;
    boolean groupDone = groupKill == GroupKill.SIGNALLED;
    Set<Long> otherGroups = new TreeSet<>();
    for (Member member : members) {
      if (member.group() != id && member.session() == id && allowed(member.group())) {
        otherGroups.add(member.group());
      }
    }
    for (long group : otherGroups) {
      runKillCommand(signal, group);
    }
    for (Member member : members) {
      if (member.pid() != id && (!groupDone || member.group() != id)) {
        ProcessHandle.of(member.pid()).ifPresent(signal::send);
      }
    }
    if (!groupDone && leader.isAlive()) {
      // Also covers the instant before setsid ran, when the leader is not in its group yet.
      // Through the handle: Process.destroy() would also close the pipes under the drain threads.
      signal.send(leader.toHandle());
    }
    return groupKill;
  }

  /** Whether {@code group} may be signalled as a group: never one that could contain this JVM. */
  private static boolean allowed(long group) {
    return group > 1 && group != ProcessHandle.current().pid() && OWN_GROUP.orElse(group) != group;
  }

  private GroupKill runKillCommand(Signal signal, long group) {
    if (killCommand.isEmpty()) {
      return GroupKill.FAILED;
    }
    try {
      Process kill =
          new ProcessBuilder(killCommand.get().toString(), "-" + signal.name(), "--", "-" + group)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!waitUninterruptibly(kill, KILL_COMMAND_BOUND)) {
        kill.destroyForcibly();
        return GroupKill.FAILED;
      }
      return kill.exitValue() == 0 ? GroupKill.SIGNALLED : GroupKill.NO_MEMBER;
    } catch (IOException | RuntimeException e) {
      return GroupKill.FAILED;
    }
  }

  private boolean awaitGone(Duration bound) {
    return pollUntil(bound, () -> !alive());
  }

  /** Polls {@code done} (1 ms doubling to 16 ms) until it holds or {@code bound} passes. */
  static boolean pollUntil(Duration bound, BooleanSupplier done) {
    long start = System.nanoTime();
    long pause = 1;
    while (!done.getAsBoolean()) {
      if (System.nanoTime() - start >= bound.toNanos()) {
        return false;
      }
      Uninterruptibles.sleepUninterruptibly(pause, TimeUnit.MILLISECONDS);
      pause = Math.min(pause * 2, MAX_POLL_MILLIS);
    }
    return true;
  }

  private static boolean waitUninterruptibly(Process process, Duration bound) {
    boolean interrupted = false;
    long start = System.nanoTime();
    try {
      while (true) {
        try {
          return process.waitFor(
              bound.toNanos() - (System.nanoTime() - start), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static OptionalLong ownGroup() {
    Optional<Stat> stat = readStat(PROC.resolve("self"));
    return stat.isPresent() ? OptionalLong.of(stat.get().group()) : OptionalLong.empty();
  }

  /** The fields of {@code /proc/PID/stat} that matter here. */
  record Stat(char state, long group, long session) {
    boolean live() {
      return state != 'Z' && state != 'X' && state != 'x';
    }
  }

  /** Reads and parses {@code dir/stat}; empty when the process vanished or it cannot be parsed. */
  static Optional<Stat> readStat(Path processDirectory) {
    return readStat(processDirectory.resolve("stat").toString(), new byte[STAT_PREFIX]);
  }

  /**
   * Reads the first {@code buffer.length} bytes of a {@code stat} file (the fields used here come
   * first: the command name is at most 64 bytes) and parses them.
   */
  private static Optional<Stat> readStat(String statFile, byte[] buffer) {
    int read;
    try (FileInputStream in = new FileInputStream(statFile)) {
      read = in.readNBytes(buffer, 0, buffer.length);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    return parseStat(new String(buffer, 0, read, StandardCharsets.ISO_8859_1));
  }

  /**
   * Reads a number from a {@code /proc/sys} file. In one read from offset 0: these files answer
   * only the first read, so a reader that fetches one byte first (as {@code Files.readString} does
   * for files of size 0) gets the first digit alone.
   */
  static OptionalLong readNumber(Path file) {
    byte[] buffer = new byte[32];
    int read;
    try (FileInputStream in = new FileInputStream(file.toString())) {
      read = in.read(buffer);
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
    try {
      return read <= 0
          ? OptionalLong.empty()
          : OptionalLong.of(
              Long.parseLong(new String(buffer, 0, read, StandardCharsets.US_ASCII).trim()));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * Parses a {@code stat} line: {@code pid (comm) state ppid pgrp session ...}. The command name
   * may contain spaces and parentheses, so the fields are read after the last {@code ')'}.
   */
  static Optional<Stat> parseStat(String line) {
    int close = line.lastIndexOf(')');
    if (close < 0 || close + 2 > line.length()) {
      return Optional.empty();
    }
    String[] fields = line.substring(close + 2).trim().split(" ");
    if (fields.length < 4 || fields[0].length() != 1) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new Stat(fields[0].charAt(0), Long.parseLong(fields[2]), Long.parseLong(fields[3])));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Returns the pid a {@code /proc} entry names, or -1 when it names no process. */
  private static long pidOf(String name) {
    if (name.isEmpty() || name.length() > 18) {
      return -1;
    }
    long pid = 0;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      pid = pid * 10 + (c - '0');
    }
    return pid;
  }
}
