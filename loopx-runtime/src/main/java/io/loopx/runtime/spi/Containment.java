package io.loopx.runtime.spi;

import org.apiguardian.api.API;

/**
 * How a {@link ProcessLauncher} keeps everything a provider starts inside the call, so that nothing
 * of it outlives the call (docs/process.md). Reported in run and dispatch receipts and doctor
 * packets as {@code containment}.
 */
@API(status = API.Status.STABLE, since = "1.0")
public enum Containment {
  /**
   * A cgroup v2 per call, in a delegated writable cgroup: ended with {@code cgroup.kill}; holds
   * against forks, pid changes and {@code setsid}.
   */
  CGROUP_V2("cgroup_v2"),
  /**
   * A cgroup per call in the v1 {@code freezer} and {@code pids} hierarchies: ended by freezing,
   * SIGKILL to every member and thawing; holds against forks, pid changes and {@code setsid}.
   */
  CGROUP_V1("cgroup_v1"),
  /**
   * The provider's own process group (and session), signalled as a whole with {@code kill(-pgid)};
   * a descendant that calls {@code setsid} escapes it.
   */
  PROCESS_GROUP("process_group");

  private final String wireName;

  Containment(String wireName) {
    this.wireName = wireName;
  }

  /** Returns the JSON spelling: {@code cgroup_v2}, {@code cgroup_v1} or {@code process_group}. */
  public String wireName() {
    return wireName;
  }
}
