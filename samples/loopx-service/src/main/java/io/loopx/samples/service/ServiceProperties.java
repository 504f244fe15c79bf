package io.loopx.samples.service;

import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The service's routes: which capabilities {@code POST /capabilities/{id}} dispatches, and how
 * (properties {@code loopx-service.*}).
 *
 * @param capabilities per capability id, the protocol, action, permission and operation a dispatch
 *     binds into its execution envelope
 * @param deadline an optional bound of each dispatch (queueing for a worker included); none: the
 *     manifest's {@code timeout_seconds}
 */
@ConfigurationProperties("loopx-service")
public record ServiceProperties(Map<String, Route> capabilities, @Nullable Duration deadline) {

  /** Binds the properties; no routes when none are configured. */
  public ServiceProperties {
    capabilities = capabilities == null ? Map.of() : Map.copyOf(capabilities);
  }

  /**
   * How one capability is dispatched.
   *
   * @param protocol the protocol the providers implement, e.g. {@code word_count_v0}
   * @param action the action bound into the envelope and decided by the domain policy
   * @param permission the permission the provider must declare and require
   * @param operation the scope's {@code operation}
   */
  public record Route(String protocol, String action, String permission, String operation) {}
}
