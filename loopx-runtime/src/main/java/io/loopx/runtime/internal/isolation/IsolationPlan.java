package io.loopx.runtime.internal.isolation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What an isolated provider may reach beyond the fixed mount view (docs/process.md#isolation): the
 * network, and host directories bound at their own paths. The fixed view (read-only system
 * directories, the package directory read-only, a private scratch) is the launcher's, not the
 * plan's.
 *
 * @param network whether the provider keeps the host's network (else a namespace without
 *     interfaces)
 * @param binds the host directories made visible, in order
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public record IsolationPlan(boolean network, List<IsolationBind> binds) {
  /** Nothing declared: no network, no host directory. */
  public static final IsolationPlan NONE_DECLARED = new IsolationPlan(false, List.of());

  /** Copies the binds. */
  public IsolationPlan {
    binds = List.copyOf(Objects.requireNonNull(binds, "binds"));
  }

  /** Returns this plan with {@code more} binds appended. */
  public IsolationPlan plus(List<IsolationBind> more) {
    List<IsolationBind> all = new ArrayList<>(binds);
    all.addAll(more);
    return new IsolationPlan(network, all);
  }
}
