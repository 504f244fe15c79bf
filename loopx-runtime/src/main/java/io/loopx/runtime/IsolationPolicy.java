package io.loopx.runtime;

import org.apiguardian.api.API;

/**
 * Whether the host runs providers isolated by the kernel (docs/process.md#isolation): each one-shot
 * call, doctor probe and warm worker in its own user, mount, pid and network namespaces through
 * bubblewrap, as a non-root uid without capabilities. Set with {@link
 * Loopx.Builder#isolation(IsolationPolicy)} for every provider; a host that does not set it runs
 * capability providers with {@link #OFF} and standalone extensions with {@link #WHEN_AVAILABLE}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public enum IsolationPolicy {
  /**
   * No isolation: providers run as the host's user with the host's view (the default for capability
   * providers).
   */
  OFF,
  /**
   * Isolate where bubblewrap is installed and usable; else run as with {@link #OFF} (the default
   * for standalone extensions).
   */
  WHEN_AVAILABLE,
  /**
   * Isolate, or refuse: without a usable bubblewrap every call, probe and worker start fails with
   * {@code isolation_unavailable} before anything runs.
   */
  REQUIRED
}
