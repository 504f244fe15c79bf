package io.loopx.runtime.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the cgroups this JVM sits in and chooses, once per JVM, how provider calls are contained
 * (see {@link Enclosure}): a cgroup v2 child with {@code cgroup.kill} and a {@code pids}
 * controller, else cgroup v1 {@code freezer} + {@code pids} children, else a cgroup v2 child
 * without a {@code pids} limit, else the process group. A mechanism is chosen only after a probe
 * cgroup could be created (and removed) where call cgroups will be.
 *
 * <p>Call cgroups are children of the JVM's own cgroup in each hierarchy (so a host that delegated
 * a subtree to the JVM keeps them inside it), named {@code loopx-<jvm pid>-<jvm start time>-<n>}.
 * When the mechanism is chosen, the call cgroups of dead hosts are swept ({@link CgroupSweep}).
 *
 * <p>Memory: with cgroup v2 the {@code memory} controller is used when a probe child has {@code
 * memory.max}; with cgroup v1, a child of the JVM's own cgroup in the {@code memory} hierarchy is
 * added to each call cgroup when a probe child there has {@code memory.limit_in_bytes}. Without
 * either, calls have no memory limit ({@link Enclosure#limitsMemory()} is false).
 */
final class Cgroups {
  private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");
  private static final Path OWN_CGROUPS = Path.of("/proc/self/cgroup");

  private Cgroups() {}

  /** Where this JVM sits: its own cgroup directory in each hierarchy that matters. */
  record Placement(
      Optional<Path> v2, Optional<Path> freezer, Optional<Path> pids, Optional<Path> memory) {
    /** A placement without a v1 memory hierarchy. */
    Placement(Optional<Path> v2, Optional<Path> freezer, Optional<Path> pids) {
      this(v2, freezer, pids, Optional.empty());
    }
  }

  /** The mechanism chosen for this JVM (computed on first use). */
  static Enclosure system() {
    return Holder.SYSTEM;
  }

  private static final class Holder {
    static final Enclosure SYSTEM = chooseAndSweep();
  }

  private static Enclosure chooseAndSweep() {
    Enclosure chosen = choose(locate());
    try {
      CgroupSweep.sweep(chosen.parents());
    } catch (RuntimeException e) {
      // Best effort: what a failed sweep leaves, the next start sweeps.
    }
    return chosen;
  }

  /** Chooses the strongest usable mechanism for {@code placement} (see the class comment). */
  static Enclosure choose(Placement placement) {
    Optional<Enclosure.CgroupV2> v2 = placement.v2().flatMap(Cgroups::probeV2);
    if (v2.isPresent() && v2.get().limitsPids()) {
      return v2.get();
    }
    if (placement.freezer().isPresent() && placement.pids().isPresent()) {
      Optional<Enclosure.CgroupV1> v1 = probeV1(placement.freezer().get(), placement.pids().get());
      if (v1.isPresent()) {
        Optional<Path> memory = placement.memory().filter(Cgroups::probeV1Memory);
        return new Enclosure.CgroupV1(v1.get().freezer(), v1.get().pids(), memory);
      }
    }
    if (v2.isPresent()) {
      return v2.get();
    }
    return Enclosure.ProcessGroupOnly.INSTANCE;
  }

  /** A cgroup v2 mechanism under {@code own}, when a probe child can be made with cgroup.kill. */
  static Optional<Enclosure.CgroupV2> probeV2(Path own) {
    if (!Files.isWritable(own) || !Files.isWritable(own.resolve("cgroup.procs"))) {
      return Optional.empty();
    }
    Optional<Enclosure.Tools> tools = Enclosure.Tools.find();
    if (tools.isEmpty()) {
      return Optional.empty();
    }
    Path probe = own.resolve(CallCgroup.name("probe"));
    try {
      Files.createDirectory(probe);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    try {
      if (!Files.exists(probe.resolve("cgroup.kill"))) {
        return Optional.empty();
      }
      boolean pids = Files.exists(probe.resolve("pids.max"));
      boolean memory = Files.isWritable(probe.resolve("memory.max"));
      return Optional.of(new Enclosure.CgroupV2(own, pids, tools.get(), memory));
    } finally {
      CallCgroup.removeQuietly(probe);
    }
  }

  /** A cgroup v1 mechanism, when probe children can be made in both hierarchies. */
  static Optional<Enclosure.CgroupV1> probeV1(Path freezer, Path pids) {
    if (!Files.isWritable(freezer.resolve("tasks")) || !Files.isWritable(pids.resolve("tasks"))) {
      return Optional.empty();
    }
    if (CallCgroup.currentThreadId().isEmpty()) {
      return Optional.empty();
    }
    String name = CallCgroup.name("probe");
    Path freezerProbe = freezer.resolve(name);
    Path pidsProbe = pids.resolve(name);
    try {
      Files.createDirectory(freezerProbe);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    try {
      Files.createDirectory(pidsProbe);
    } catch (IOException | RuntimeException e) {
      CallCgroup.removeQuietly(freezerProbe);
      return Optional.empty();
    }
    try {
      if (!Files.exists(freezerProbe.resolve("freezer.state"))
          || !Files.exists(pidsProbe.resolve("pids.max"))) {
        return Optional.empty();
      }
      return Optional.of(new Enclosure.CgroupV1(freezer, pids));
    } finally {
      CallCgroup.removeQuietly(freezerProbe);
      CallCgroup.removeQuietly(pidsProbe);
    }
  }

  /**
   * Whether call cgroups can be made and limited in the v1 {@code memory} hierarchy under {@code
   * memory}: a probe child can be created there and has a writable {@code memory.limit_in_bytes}.
   */
  static boolean probeV1Memory(Path memory) {
    if (!Files.isWritable(memory.resolve("tasks"))) {
      return false;
    }
    Path probe = memory.resolve(CallCgroup.name("probe"));
    try {
      Files.createDirectory(probe);
    } catch (IOException | RuntimeException e) {
      return false;
    }
    try {
      return Files.isWritable(probe.resolve("memory.limit_in_bytes"));
    } finally {
      CallCgroup.removeQuietly(probe);
    }
  }

  /** Reads where this JVM sits from {@code /proc/self/mountinfo} and {@code /proc/self/cgroup}. */
  static Placement locate() {
    try {
      return locate(
          Files.readAllLines(MOUNTINFO, StandardCharsets.UTF_8),
          Files.readAllLines(OWN_CGROUPS, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return new Placement(Optional.empty(), Optional.empty(), Optional.empty());
    }
  }

  /** As {@link #locate()}, from the two files' lines. */
  static Placement locate(List<String> mountinfo, List<String> ownCgroups) {
    Optional<Path> v2 = Optional.empty();
    Optional<Path> freezer = Optional.empty();
    Optional<Path> pids = Optional.empty();
    Optional<Path> memory = Optional.empty();
    List<Mount> mounts = mounts(mountinfo);
    for (String line : ownCgroups) {
      String[] parts = line.split(":", 3);
      if (parts.length != 3) {
        continue;
      }
      String path = parts[2];
      if (parts[0].equals("0") && parts[1].isEmpty()) {
        v2 = v2.or(() -> directory(mounts, "cgroup2", "", path));
      } else {
        for (String controller : parts[1].split(",")) {
          if (controller.equals("freezer")) {
            freezer = directory(mounts, "cgroup", "freezer", path);
          } else if (controller.equals("pids")) {
            pids = directory(mounts, "cgroup", "pids", path);
          } else if (controller.equals("memory")) {
            memory = directory(mounts, "cgroup", "memory", path);
          }
        }
      }
    }
    return new Placement(v2, freezer, pids, memory);
  }

  /** A cgroup file-system mount: its root inside the hierarchy, mount point, options. */
  private record Mount(String root, String point, String type, List<String> options) {}

  private static List<Mount> mounts(List<String> mountinfo) {
    List<Mount> mounts = new ArrayList<>();
    for (String line : mountinfo) {
      int separator = line.indexOf(" - ");
      if (separator < 0) {
        continue;
      }
      String[] before = line.substring(0, separator).split(" ");
      String[] after = line.substring(separator + 3).split(" ");
      if (before.length < 5 || after.length < 3) {
        continue;
      }
      mounts.add(
          new Mount(
              unescape(before[3]), unescape(before[4]), after[0], List.of(after[2].split(","))));
    }
    return mounts;
  }

  private static Optional<Path> directory(
      List<Mount> mounts, String type, String controller, String path) {
    for (Mount mount : mounts) {
      if (!mount.type().equals(type)
          || (!controller.isEmpty() && !mount.options().contains(controller))) {
        continue;
      }
      String root = mount.root();
      String relative;
      if (root.equals("/")) {
        relative = path;
      } else if (path.equals(root) || path.startsWith(root + "/")) {
        relative = path.substring(root.length());
      } else {
        continue;
      }
      try {
        Path dir = Path.of(mount.point(), relative.isEmpty() ? "/" : relative).normalize();
        if (Files.isDirectory(dir)) {
          return Optional.of(dir);
        }
      } catch (InvalidPathException e) {
        // Not a usable path.
      }
    }
    return Optional.empty();
  }

  /** Decodes mountinfo's octal escapes ({@code \040} for a space, ...). */
  private static String unescape(String field) {
    if (field.indexOf('\\') < 0) {
      return field;
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && i + 3 < field.length()) {
        try {
          out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
          i += 3;
          continue;
        } catch (NumberFormatException e) {
          // Not an escape: keep the backslash.
        }
      }
      out.append(c);
    }
    return out.toString();
  }
}
