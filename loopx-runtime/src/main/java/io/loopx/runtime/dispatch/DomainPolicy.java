package io.loopx.runtime.dispatch;

import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The host's domain policy: decides whether an effectful action may be dispatched, after resolution
 * and the permission check and before an execution envelope is bound.
 *
 * <p>Implemented by hosts. Must be thread-safe and side-effect free (previews ask it too). The
 * default of {@link io.loopx.runtime.Loopx.Builder} is {@link #denyAll()}: nothing effectful runs
 * until the host says so.
 */
@FunctionalInterface
@API(status = API.Status.STABLE, since = "1.0")
public interface DomainPolicy {

  /** Returns the decision for {@code request}. */
  Decision decide(DispatchRequest request);

  /** A policy that allows every action. */
  static DomainPolicy allowAll() {
    return request -> Decision.allow();
  }

  /** A policy that refuses every action. */
  static DomainPolicy denyAll() {
    return request -> Decision.deny("the host's domain policy allows no effectful dispatch");
  }

  /** A policy decision: allowed, or refused with a reason. Immutable. */
  final class Decision {
    private static final Decision ALLOW = new Decision(Optional.empty());

    private final Optional<String> reason;

    private Decision(Optional<String> reason) {
      this.reason = reason;
    }

    /** Returns an allowing decision. */
    public static Decision allow() {
      return ALLOW;
    }

    /** Returns a refusal with a reason naming what was refused. */
    public static Decision deny(String reason) {
      return new Decision(Optional.of(Objects.requireNonNull(reason, "reason")));
    }

    /** Returns whether the action is allowed. */
    public boolean allowed() {
      return reason.isEmpty();
    }

    /** Returns the refusal reason; empty when allowed. */
    public Optional<String> reason() {
      return reason;
    }
  }
}
