package io.loopx.runtime.internal.process;

import io.loopx.runtime.process.Containment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

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
  Optional<CallCgroup> open(int pidsLimit) throws IOException;

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
   * cgroups {@code freezer} and {@code pids}.
   */
  record CgroupV1(Path freezer, Path pids) implements Enclosure {
    @Override
    public Containment kind() {
      return Containment.CGROUP_V1;
    }

    @Override
    public Optional<CallCgroup> open(int pidsLimit) throws IOException {
      return Optional.of(CallCgroup.V1.create(freezer, pids, pidsLimit));
    }

    @Override
    public List<Path> parents() {
      return List.of(freezer, pids);
    }
  }

  /**
   * Call cgroups under the JVM's own cgroup v2 {@code own}; {@code limitsPids} when the {@code
   * pids} controller is enabled for them.
   */
  record CgroupV2(Path own, boolean limitsPids, Tools tools) implements Enclosure {
    @Override
    public Containment kind() {
      return Containment.CGROUP_V2;
    }

    @Override
    public Optional<CallCgroup> open(int pidsLimit) throws IOException {
      return Optional.of(CallCgroup.V2.create(own, limitsPids ? pidsLimit : 0, tools));
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
    public Optional<CallCgroup> open(int pidsLimit) {
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
