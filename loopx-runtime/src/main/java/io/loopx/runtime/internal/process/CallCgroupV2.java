package io.loopx.runtime.internal.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A call cgroup v2. The child joins through a trampoline, a POSIX shell that writes its own pid to
 * {@code cgroup.procs} and then execs {@code env -i -- NAME=VALUE... PROGRAM ARGS...}: the provider
 * gets exactly the request's argv and environment (the shell's own variables are dropped by {@code
 * env -i}), while the values travel in the shell's environment as {@code LOOPX_ENV_<n>=NAME=VALUE},
 * never on a command line that other users could read.
 */
final class CallCgroupV2 extends CallCgroup {
  static final String VARIABLE_PREFIX = "LOOPX_ENV_";
  private final Path dir;
  private final Enclosure.Tools tools;
  private OptionalLong memoryLimit = OptionalLong.empty();

  private CallCgroupV2(Path dir, Enclosure.Tools tools) {
    this.dir = dir;
    this.tools = tools;
  }

  static CallCgroupV2 create(Path own, int pidsLimit, Enclosure.Tools tools) throws IOException {
    return create(own, pidsLimit, OptionalLong.empty(), tools);
  }

  /**
   * Creates the child, with {@code pids.max} when {@code pidsLimit} is positive and {@code
   * memory.max} (then {@code memory.swap.max} 0 where it exists) when {@code memoryLimit} is
   * present.
   */
  static CallCgroupV2 create(
      Path own, int pidsLimit, OptionalLong memoryLimit, Enclosure.Tools tools) throws IOException {
    Path dir = createUnder(own);
    CallCgroupV2 cgroup = new CallCgroupV2(dir, tools);
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
