package io.loopx.runtime.internal.process;

import io.loopx.runtime.spi.Containment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How provider calls are contained, chosen once per JVM by {@link Cgroups#choose}: a mechanism that
 * opens one {@link CallCgroup} per call, or the process group alone.
 */
sealed interface Enclosure {

  /** Returns the kind reported in receipts. */
  Containment kind();

  /**
   * Creates the cgroup of one call, limited to {@code pidsLimit} tasks where the mechanism has a
   * {@code pids} controller; empty for the process-group mechanism.
   *
   * @throws IOException when the call's cgroup cannot be created
   */
  default Optional<CallCgroup> open(int pidsLimit) throws IOException {
    return open(pidsLimit, OptionalLong.empty());
  }

  /**
   * Creates the cgroup of one call as {@link #open(int)}, also limited to {@code memoryLimit} bytes
   * (memory and swap together) when present and the mechanism {@linkplain #limitsMemory() limits
   * memory}.
   *
   * @throws IOException when the call's cgroup cannot be created or limited
   */
  Optional<CallCgroup> open(int pidsLimit, OptionalLong memoryLimit) throws IOException;

  /** Whether call cgroups of this mechanism get a memory limit. */
  default boolean limitsMemory() {
    return false;
  }

  /**
   * The directories under which call cgroups are created, one per hierarchy: where {@link
   * CgroupSweep} looks for the cgroups of dead hosts. A hierarchy added to the call cgroup must be
   * listed here.
   */
  default List<Path> parents() {
    return List.of();
  }

  /**
   * Call cgroups in the v1 {@code freezer} and {@code pids} hierarchies, under the JVM's own
   * cgroups {@code freezer} and {@code pids}, and in the {@code memory} hierarchy under the JVM's
   * own {@code memory} cgroup when present.
   */
  record CgroupV1(Path freezer, Path pids, Optional<Path> memory) implements Enclosure {
    /** Call cgroups without a memory hierarchy. */
    CgroupV1(Path freezer, Path pids) {
      this(freezer, pids, Optional.empty());
    }

    @Override
    public Containment kind() {
      return Containment.CGROUP_V1;
    }

    @Override
    public Optional<CallCgroup> open(int pidsLimit, OptionalLong memoryLimit) throws IOException {
      return Optional.of(
          CallCgroupV1.create(
              freezer,
              pids,
              pidsLimit,
              memoryLimit.isPresent() ? memory : Optional.empty(),
              memoryLimit));
    }

    @Override
    public boolean limitsMemory() {
      return memory.isPresent();
    }

    @Override
    public List<Path> parents() {
      List<Path> parents = new ArrayList<>(List.of(freezer, pids));
      memory.ifPresent(parents::add);
      return parents;
    }
  }

  /**
   * Call cgroups under the JVM's own cgroup v2 {@code own}; {@code limitsPids} when the {@code
   * pids} controller is enabled for them.
   */
  record CgroupV2(Path own, boolean limitsPids, Tools tools, boolean limitsMemory)
      implements Enclosure {
    /** Call cgroups without the {@code memory} controller. */
    CgroupV2(Path own, boolean limitsPids, Tools tools) {
      this(own, limitsPids, tools, false);
    }

    @Override
    public Containment kind() {
      return Containment.CGROUP_V2;
    }

    @Override
    public Optional<CallCgroup> open(int pidsLimit, OptionalLong memoryLimit) throws IOException {
      return Optional.of(
          CallCgroupV2.create(
              own,
              limitsPids ? pidsLimit : 0,
              limitsMemory ? memoryLimit : OptionalLong.empty(),
              tools));
    }

    @Override
    public List<Path> parents() {
      return List.of(own);
    }
  }

  /** No usable cgroup: the provider's process group alone ({@link ProcessGroup}). */
  enum ProcessGroupOnly implements Enclosure {
    INSTANCE;

    @Override
    public Containment kind() {
      return Containment.PROCESS_GROUP;
    }

    @Override
    public Optional<CallCgroup> open(int pidsLimit, OptionalLong memoryLimit) {
      return Optional.empty();
    }
  }

  /** The programs of the cgroup v2 trampoline: a POSIX shell and {@code env}. */
  record Tools(Path shell, Path env) {
    static Optional<Tools> find() {
      Optional<Path> shell = LaunchSupport.findTool("sh");
      Optional<Path> env = LaunchSupport.findTool("env");
      return shell.isPresent() && env.isPresent()
          ? Optional.of(new Tools(shell.get(), env.get()))
          : Optional.empty();
    }
  }
}
