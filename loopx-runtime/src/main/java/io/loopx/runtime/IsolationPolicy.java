package io.loopx.runtime;

import org.apiguardian.api.API;

/**
 * Whether the host runs providers isolated by the kernel (docs/process.md#isolation): each one-shot
 * call, doctor probe and warm worker in its own user, mount, pid and network namespaces through
 * bubblewrap, as a non-root uid without capabilities. Set with {@link
 * Loopx.Builder#isolation(IsolationPolicy)}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public enum IsolationPolicy {
  /** No isolation: providers run as the host's user with the host's view (the default). */
  OFF,
  /** Isolate where bubblewrap is installed and usable; else run as with {@link #OFF}. */
  WHEN_AVAILABLE,
  /**
   * Isolate, or refuse: without a usable bubblewrap every call, probe and worker start fails with
   * {@code isolation_unavailable} before anything runs.
   */
  REQUIRED
}
