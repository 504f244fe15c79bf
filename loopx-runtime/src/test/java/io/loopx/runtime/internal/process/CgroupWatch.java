package io.loopx.runtime.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Test helper for the tests of other packages: the call cgroup directories a process sits in, and
 * the keepers ({@link Keeper}) that watch given directories, read from {@code /proc}.
 */
public final class CgroupWatch {
  private CgroupWatch() {}

  /**
   * The directories of the call cgroups ({@code loopx-*}) that {@code pid} sits in, under this
   * JVM's own cgroups (the host under test sits in the same ones); empty when it has none.
   */
  public static List<Path> callCgroupsOf(long pid) {
    List<Path> found = new ArrayList<>();
    Cgroups.Placement placement = Cgroups.locate();
    List<String> lines;
    try {
      lines =
          Files.readAllLines(
              Path.of("/proc", Long.toString(pid), "cgroup"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return found;
    }
    for (String line : lines) {
      String path = line.substring(line.lastIndexOf(':') + 1);
      String leaf = path.substring(path.lastIndexOf('/') + 1);
      if (!leaf.startsWith("loopx-")) {
        continue;
      }
      for (Optional<Path> own : List.of(placement.v2(), placement.freezer(), placement.pids())) {
        own.map(o -> o.resolve(leaf))
            .filter(Files::isDirectory)
            .filter(d -> !found.contains(d))
            .ifPresent(found::add);
      }
    }
    return found;
  }

  /**
   * Creates, in every directory that holds this JVM's call cgroups, an empty call cgroup named for
   * a dead host (a pid no process has); returns the directories made.
   */
  public static List<Path> deadHostCgroup() throws IOException, InterruptedException {
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    if (CgroupSweep.running(ended.pid()).isPresent()) {
      throw new IllegalStateException("the pid was reused at once");
    }
    List<Path> made = new ArrayList<>();
    for (Path parent : Cgroups.system().parents()) {
      made.add(Files.createDirectory(parent.resolve("loopx-" + ended.pid() + "-1-1")));
    }
    return made;
  }

  /** The pids of the live keepers whose arguments name one of {@code directories}. */
  public static List<Long> keepersOf(List<Path> directories) {
    List<Long> keepers = new ArrayList<>();
    try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path process : processes) {
        List<String> argv;
        try {
          argv =
              Arrays.asList(
                  new String(Files.readAllBytes(process.resolve("cmdline")), StandardCharsets.UTF_8)
                      .split("\0"));
        } catch (IOException e) {
          continue;
        }
        if (argv.contains(Keeper.NAME)
            && directories.stream().anyMatch(d -> argv.contains(d.toString()))) {
          keepers.add(Long.parseLong(process.getFileName().toString()));
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return keepers;
  }
}
