package io.loopx.runtime.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cgroup of one provider call. The provider is inside it before it can fork, every descendant
 * is born inside it, and no member can leave it without a root write to another cgroup, so "the
 * cgroup is empty" is a fact that no fork, pid change, {@code setpgid} or {@code setsid} can hide.
 *
 * <p>Termination: SIGTERM to every member (a courtesy), up to the grace for the cgroup to empty,
 * then the atomic kill of the mechanism ({@link V1}: freeze, SIGKILL to every member, thaw; {@link
 * V2}: {@code cgroup.kill}), repeated until the cgroup is empty or a safety bound passes. Then
 * {@link #remove()} deletes the directories. This JVM is never signalled: its pid is skipped, and a
 * JVM thread that ended up inside (see {@link V1#start}) is moved back first.
 *
 * <p>Memory: where the mechanism has a memory controller and the call has a limit, the cgroup is
 * limited to that many bytes of memory, and of memory plus swap together where the kernel accounts
 * swap (so a capped provider cannot swap instead); the kernel's OOM killer then kills a member that
 * would cross it, which {@link #killedForMemory} reads from the controller's own counter.
 *
 * <p>Not thread-safe: one call owns it.
 */
abstract sealed class CallCgroup permits CallCgroup.V1, CallCgroup.V2 {
  static final long SELF = ProcessHandle.current().pid();

  private static final AtomicLong SEQUENCE = new AtomicLong();
  private static final Duration KILL_BOUND = Duration.ofSeconds(5);
  private static final Duration KILL_RETRY = Duration.ofMillis(250);
  private static final Duration REMOVE_BOUND = Duration.ofSeconds(2);
  private static final Path THREAD_SELF = Path.of("/proc/thread-self");
  private static final Path OWN_TASKS = Path.of("/proc/self/task");

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

  /**
   * A call cgroup in the v1 {@code freezer} and {@code pids} hierarchies. The child joins by
   * inheritance: the spawning thread moves itself into both cgroups' {@code tasks} around {@link
   * ProcessBuilder#start()} (a child is born in the cgroup of the thread that forks it) and back;
   * JVM threads that the start created meanwhile (the JDK's process reaper) are moved back too.
   * Nothing changes in what the provider runs.
   */
  static final class V1 extends CallCgroup {
    private static final Duration FREEZE_BOUND = Duration.ofMillis(100);
    private final Path ownFreezer;
    private final Path ownPids;
    private final Path freezer;
    private final Path pids;
    private final Optional<Path> ownMemory;
    private Optional<Path> memory = Optional.empty();
    private OptionalLong memoryLimit = OptionalLong.empty();

    private V1(Path ownFreezer, Path ownPids, Path freezer, Path pids, Optional<Path> ownMemory) {
      this.ownFreezer = ownFreezer;
      this.ownPids = ownPids;
      this.freezer = freezer;
      this.pids = pids;
      this.ownMemory = ownMemory;
    }

    static V1 create(Path ownFreezer, Path ownPids, int pidsLimit) throws IOException {
      return create(ownFreezer, ownPids, pidsLimit, Optional.empty(), OptionalLong.empty());
    }

    /**
     * Creates the freezer and pids children and, when {@code ownMemory} and {@code memoryLimit} are
     * present, a memory child limited to that many bytes ({@code memory.limit_in_bytes}, then
     * {@code memory.memsw.limit_in_bytes} where swap is accounted, else {@code memory.swappiness}
     * 0), all named alike.
     */
    static V1 create(
        Path ownFreezer,
        Path ownPids,
        int pidsLimit,
        Optional<Path> ownMemory,
        OptionalLong memoryLimit)
        throws IOException {
      Path freezer = createUnder(ownFreezer);
      Path pids;
      try {
        pids = Files.createDirectory(ownPids.resolve(freezer.getFileName().toString()));
      } catch (IOException | RuntimeException e) {
        removeQuietly(freezer);
        throw e;
      }
      V1 cgroup =
          new V1(
              ownFreezer,
              ownPids,
              freezer,
              pids,
              memoryLimit.isPresent() ? ownMemory : Optional.empty());
      try {
        write(pids.resolve("pids.max"), Integer.toString(pidsLimit));
        if (cgroup.ownMemory.isPresent()) {
          Path memory =
              Files.createDirectory(
                  cgroup.ownMemory.get().resolve(freezer.getFileName().toString()));
          cgroup.memory = Optional.of(memory);
          String bytes = Long.toString(memoryLimit.getAsLong());
          write(memory.resolve("memory.limit_in_bytes"), bytes);
          Path memsw = memory.resolve("memory.memsw.limit_in_bytes");
          if (Files.exists(memsw)) {
            write(memsw, bytes); // after memory.limit_in_bytes: memsw may never be below it
          } else {
            writeQuietly(memory.resolve("memory.swappiness"), "0");
          }
          cgroup.memoryLimit = memoryLimit;
        }
      } catch (IOException | RuntimeException e) {
        cgroup.removeDirectories();
        throw e;
      }
      return cgroup;
    }

    @Override
    List<Path> directories() {
      List<Path> dirs = new ArrayList<>(List.of(freezer, pids));
      memory.ifPresent(dirs::add);
      return dirs;
    }

    @Override
    OptionalLong memoryLimit() {
      return memoryLimit;
    }

    @Override
    boolean killedForMemory(boolean leaderKilled) {
      if (memory.isEmpty()) {
        return false;
      }
      long kills = counter(memory.get().resolve("memory.oom_control"), "oom_kill");
      if (kills >= 0) {
        return kills > 0;
      }
      return leaderKilled
          && (parse(read(memory.get().resolve("memory.failcnt"))) > 0
              || parse(read(memory.get().resolve("memory.memsw.failcnt"))) > 0);
    }

    private static long parse(String text) {
      try {
        return Long.parseLong(text.trim());
      } catch (NumberFormatException e) {
        return -1;
      }
    }

    @Override
    List<String> command(List<String> command, Map<String, String> environment) {
      return command;
    }

    @Override
    Map<String, String> processEnvironment(Map<String, String> environment) {
      return environment;
    }

    @Override
    Process start(ProcessBuilder builder) throws IOException {
      OptionalLong tid = currentThreadId();
      if (tid.isEmpty()) {
        throw new IOException("the calling thread's id is not readable in /proc/thread-self");
      }
      String id = Long.toString(tid.getAsLong());
      write(freezer.resolve("tasks"), id);
      try {
        write(pids.resolve("tasks"), id);
        try {
          if (memory.isEmpty()) {
            return builder.start();
          }
          write(memory.get().resolve("tasks"), id);
          try {
            return builder.start();
          } finally {
            write(ownMemory.orElseThrow().resolve("tasks"), id);
          }
        } finally {
          write(ownPids.resolve("tasks"), id);
        }
      } finally {
        write(ownFreezer.resolve("tasks"), id);
        reclaimJvmThreads();
      }
    }

    /** Moves every thread of this JVM found in the call's cgroups back to the JVM's own. */
    private void reclaimJvmThreads() throws IOException {
      for (long tid : readIds(freezer.resolve("tasks"))) {
        if (Files.exists(OWN_TASKS.resolve(Long.toString(tid)))) {
          write(ownFreezer.resolve("tasks"), Long.toString(tid));
        }
      }
      for (long tid : readIds(pids.resolve("tasks"))) {
        if (Files.exists(OWN_TASKS.resolve(Long.toString(tid)))) {
          write(ownPids.resolve("tasks"), Long.toString(tid));
        }
      }
      if (memory.isPresent()) {
        for (long tid : readIds(memory.get().resolve("tasks"))) {
          if (Files.exists(OWN_TASKS.resolve(Long.toString(tid)))) {
            write(ownMemory.orElseThrow().resolve("tasks"), Long.toString(tid));
          }
        }
      }
    }

    @Override
    Path procs() {
      return freezer.resolve("cgroup.procs");
    }

    @Override
    void killAll() {
      // A JVM thread inside would be frozen with the rest (and could be the one freezing).
      boolean jvmInside = readIds(procs()).contains(SELF);
      if (jvmInside) {
        try {
          reclaimJvmThreads();
          jvmInside = readIds(procs()).contains(SELF);
        } catch (IOException e) {
          // Stays inside: kill without freezing.
        }
      }
      Path state = freezer.resolve("freezer.state");
      if (!jvmInside) {
        writeQuietly(state, "FROZEN");
        ProcessGroup.pollUntil(FREEZE_BOUND, () -> read(state).startsWith("FROZEN"));
      }
      try {
        for (long pid : members()) {
          ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
      } finally {
        writeQuietly(state, "THAWED");
      }
    }

    @Override
    boolean removeDirectories() {
      boolean freezerGone = removeQuietly(freezer);
      boolean pidsGone = removeQuietly(pids);
      boolean memoryGone = memory.map(CallCgroup::removeQuietly).orElse(true);
      return freezerGone && pidsGone && memoryGone;
    }

    @Override
    public String toString() {
      return "cgroup v1 " + freezer + " + " + pids + memory.map(m -> " + " + m).orElse("");
    }
  }

  /**
   * A call cgroup v2. The child joins through a trampoline, a POSIX shell that writes its own pid
   * to {@code cgroup.procs} and then execs {@code env -i -- NAME=VALUE... PROGRAM ARGS...}: the
   * provider gets exactly the request's argv and environment (the shell's own variables are dropped
   * by {@code env -i}), while the values travel in the shell's environment as {@code
   * LOOPX_ENV_<n>=NAME=VALUE}, never on a command line that other users could read.
   */
  static final class V2 extends CallCgroup {
    static final String VARIABLE_PREFIX = "LOOPX_ENV_";
    private final Path dir;
    private final Enclosure.Tools tools;
    private OptionalLong memoryLimit = OptionalLong.empty();

    private V2(Path dir, Enclosure.Tools tools) {
      this.dir = dir;
      this.tools = tools;
    }

    static V2 create(Path own, int pidsLimit, Enclosure.Tools tools) throws IOException {
      return create(own, pidsLimit, OptionalLong.empty(), tools);
    }

    /**
     * Creates the child, with {@code pids.max} when {@code pidsLimit} is positive and {@code
     * memory.max} (then {@code memory.swap.max} 0 where it exists) when {@code memoryLimit} is
     * present.
     */
    static V2 create(Path own, int pidsLimit, OptionalLong memoryLimit, Enclosure.Tools tools)
        throws IOException {
      Path dir = createUnder(own);
      V2 cgroup = new V2(dir, tools);
      try {
        if (pidsLimit > 0) {
          write(dir.resolve("pids.max"), Integer.toString(pidsLimit));
        }
        if (memoryLimit.isPresent()) {
          write(dir.resolve("memory.max"), Long.toString(memoryLimit.getAsLong()));
          Path swap = dir.resolve("memory.swap.max");
          if (Files.exists(swap)) {
            write(swap, "0");
          }
          cgroup.memoryLimit = memoryLimit;
        }
      } catch (IOException | RuntimeException e) {
        cgroup.removeDirectories();
        throw e;
      }
      return cgroup;
    }

    @Override
    List<Path> directories() {
      return List.of(dir);
    }

    @Override
    OptionalLong memoryLimit() {
      return memoryLimit;
    }

    @Override
    boolean killedForMemory(boolean leaderKilled) {
      return memoryLimit.isPresent() && counter(dir.resolve("memory.events"), "oom_kill") > 0;
    }

    @Override
    List<String> command(List<String> command, Map<String, String> environment) {
      StringBuilder script =
          new StringBuilder("echo $$ > \"$0\" || exit 125; e=$1; shift; exec \"$e\" -i --");
      for (int i = 0; i < environment.size(); i++) {
        script.append(" \"$").append(VARIABLE_PREFIX).append(i).append('"');
      }
      script.append(" \"$@\"");
      List<String> trampoline = new ArrayList<>();
      trampoline.add(tools.shell().toString());
      trampoline.add("-c");
      trampoline.add(script.toString());
      trampoline.add(procs().toString());
      trampoline.add(tools.env().toString());
      trampoline.addAll(command);
      return trampoline;
    }

    @Override
    Map<String, String> processEnvironment(Map<String, String> environment) {
      Map<String, String> encoded = new LinkedHashMap<>();
      int i = 0;
      for (Map.Entry<String, String> entry : environment.entrySet()) {
        encoded.put(VARIABLE_PREFIX + i, entry.getKey() + "=" + entry.getValue());
        i++;
      }
      return encoded;
    }

    @Override
    Process start(ProcessBuilder builder) throws IOException {
      return builder.start();
    }

    @Override
    Path procs() {
      return dir.resolve("cgroup.procs");
    }

    @Override
    void killAll() {
      writeQuietly(dir.resolve("cgroup.kill"), "1");
    }

    @Override
    boolean removeDirectories() {
      return removeQuietly(dir);
    }

    @Override
    public String toString() {
      return "cgroup v2 " + dir;
    }
  }
}
