package io.loopx.runtime.spi;

import org.apiguardian.api.API;

/**
 * What isolated a provider's processes from the host (docs/process.md#isolation). Reported in run
 * and dispatch receipts and doctor packets as {@code isolation}, beside {@code containment}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public enum Isolation {
  /** Nothing: the provider ran as the host's user with the host's view. */
  NONE("none"),
  /**
   * Bubblewrap: its own user, mount, pid, network, IPC and UTS namespaces, a non-root uid without
   * capabilities, read-only system directories and a private scratch.
   */
  BUBBLEWRAP("bwrap");

  private final String wireName;

  Isolation(String wireName) {
    this.wireName = wireName;
  }

  /** Returns the JSON spelling: {@code none} or {@code bwrap}. */
  public String wireName() {
    return wireName;
  }
}
