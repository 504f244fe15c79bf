package io.loopx.runtime.internal.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A call cgroup in the v1 {@code freezer} and {@code pids} hierarchies. The child joins by
 * inheritance: the spawning thread moves itself into both cgroups' {@code tasks} around {@link
 * ProcessBuilder#start()} (a child is born in the cgroup of the thread that forks it) and back; JVM
 * threads that the start created meanwhile (the JDK's process reaper) are moved back too. Nothing
 * changes in what the provider runs.
 */
final class CallCgroupV1 extends CallCgroup {
  private static final Duration FREEZE_BOUND = Duration.ofMillis(100);
  private final Path ownFreezer;
  private final Path ownPids;
  private final Path freezer;
  private final Path pids;
  private final Optional<Path> ownMemory;
  private Optional<Path> memory = Optional.empty();
  private OptionalLong memoryLimit = OptionalLong.empty();

  private CallCgroupV1(
      Path ownFreezer, Path ownPids, Path freezer, Path pids, Optional<Path> ownMemory) {
    this.ownFreezer = ownFreezer;
    this.ownPids = ownPids;
    this.freezer = freezer;
    this.pids = pids;
    this.ownMemory = ownMemory;
  }

  static CallCgroupV1 create(Path ownFreezer, Path ownPids, int pidsLimit) throws IOException {
    return create(ownFreezer, ownPids, pidsLimit, Optional.empty(), OptionalLong.empty());
  }

  /**
   * Creates the freezer and pids children and, when {@code ownMemory} and {@code memoryLimit} are
   * present, a memory child limited to that many bytes ({@code memory.limit_in_bytes}, then {@code
   * memory.memsw.limit_in_bytes} where swap is accounted, else {@code memory.swappiness} 0), all
   * named alike.
   */
  static CallCgroupV1 create(
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
    CallCgroupV1 cgroup =
        new CallCgroupV1(
            ownFreezer,
            ownPids,
            freezer,
            pids,
            memoryLimit.isPresent() ? ownMemory : Optional.empty());
    try {
      write(pids.resolve("pids.max"), Integer.toString(pidsLimit));
      if (cgroup.ownMemory.isPresent()) {
        Path memory =
            Files.createDirectory(cgroup.ownMemory.get().resolve(freezer.getFileName().toString()));
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
