package io.loopx.runtime.internal.isolation;

import java.nio.file.Path;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One host directory made visible inside an isolated provider's mount view, at the same path:
 * read-only, or writable (docs/process.md#isolation).
 *
 * @param hostPath the absolute host directory
 * @param writable whether the provider may write to it
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public record IsolationBind(Path hostPath, boolean writable) {
  /** Validates: the path must be absolute. */
  public IsolationBind {
    Objects.requireNonNull(hostPath, "hostPath");
    if (!hostPath.isAbsolute()) {
      throw new IllegalArgumentException("bind path must be absolute: " + hostPath);
    }
  }
}
