package io.loopx.runtime.dispatch;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.internal.Durations;
import io.loopx.runtime.internal.call.CallInput;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@link io.loopx.runtime.Loopx#dispatch(DispatchRequest, io.loopx.runtime.Mode)} dispatches:
 * the capability and protocol, the action and its scope (bound into the execution envelope), the
 * permission the operation needs, optionally the provider the caller names, bounded extra provider
 * arguments, the request (as for a run), and the deadline and one-shot options of {@link
 * io.loopx.runtime.run.RunRequest}. Immutable but for a stream input, which a call consumes.
 *
 * <pre>{@code
 * DispatchRequest r = DispatchRequest.builder(capability, protocol, ActionToken.of("recall"))
 *     .scope(scope).permission(Permission.of("memory.read")).input(json).build();
 * }</pre>
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class DispatchRequest {
  /** The most extra arguments a dispatch may append. */
  public static final int MAX_EXTRA_ARGS = 32;

  /** The longest extra argument, in characters. */
  public static final int MAX_EXTRA_ARG_LENGTH = 1024;

  static {
    CallInput.export(DispatchRequest.class, r -> r.input);
  }

  private final CapabilityId capabilityId;
  private final ProtocolId protocol;
  private final ActionToken action;
  private final ObjectNode scope;
  private final Permission permission;
  private final Optional<ProviderId> providerId;
  private final List<String> extraArgs;
  private final CallInput input;

  private DispatchRequest(Builder b, ObjectNode scope, Permission permission, CallInput input) {
    this.capabilityId = b.capabilityId;
    this.protocol = b.protocol;
    this.action = b.action;
    this.scope = scope;
    this.permission = permission;
    this.providerId = b.providerId;
    this.extraArgs = b.extraArgs;
    this.input = input;
  }

  /** Starts a request of {@code action} on {@code capabilityId} over {@code protocol}. */
  public static Builder builder(
      CapabilityId capabilityId, ProtocolId protocol, ActionToken action) {
    return new Builder(capabilityId, protocol, action);
  }

  /** Returns the capability. */
  public CapabilityId capabilityId() {
    return capabilityId;
  }

  /** Returns the protocol. */
  public ProtocolId protocol() {
    return protocol;
  }

  /** Returns the action bound into the envelope. */
  public ActionToken action() {
    return action;
  }

  /** Returns a copy of the effect scope bound into the envelope. */
  public ObjectNode scope() {
    return scope.deepCopy();
  }

  /** Returns the permission the operation needs. */
  public Permission permission() {
    return permission;
  }

  /** Returns the provider the caller selected, if any. */
  public Optional<ProviderId> providerId() {
    return providerId;
  }

  /** Returns the host-configured provider arguments appended after the manifest's {@code args}. */
  public List<String> extraArgs() {
    return extraArgs;
  }

  /** Returns the caller's deadline, if any. */
  public Optional<Duration> deadline() {
    return input.deadline();
  }

  /** Returns whether the call runs one-shot (no warm worker). */
  public boolean isOneShot() {
    return input.isOneShot();
  }

  /**
   * Builds a {@link DispatchRequest}; {@link #scope}, {@link #permission} and an {@code input} are
   * required. Not thread-safe.
   */
  public static final class Builder {
    private final CapabilityId capabilityId;
    private final ProtocolId protocol;
    private final ActionToken action;
    private @Nullable ObjectNode scope;
    private @Nullable Permission permission;
    private Optional<ProviderId> providerId = Optional.empty();
    private List<String> extraArgs = List.of();
    private @Nullable CallInput input;
    private Optional<Duration> deadline = Optional.empty();
    private boolean oneShot;

    private Builder(CapabilityId capabilityId, ProtocolId protocol, ActionToken action) {
      this.capabilityId = Objects.requireNonNull(capabilityId, "capabilityId");
      this.protocol = Objects.requireNonNull(protocol, "protocol");
      this.action = Objects.requireNonNull(action, "action");
    }

    /**
     * Sets the effect scope bound into the envelope (copied).
     *
     * @throws InvalidValueException when it is empty
     */
    public Builder scope(ObjectNode scope) {
      if (scope.isEmpty()) {
        throw new InvalidValueException("dispatch scope", "{}", "must be a non-empty object");
      }
      this.scope = scope.deepCopy();
      return this;
    }

    /** Sets the permission the operation needs. */
    public Builder permission(Permission permission) {
      this.permission = Objects.requireNonNull(permission, "permission");
      return this;
    }

    /** Names the provider to use instead of resolving exactly one ready implementation. */
    public Builder providerId(ProviderId providerId) {
      this.providerId = Optional.of(providerId);
      return this;
    }

    /**
     * Sets provider arguments appended after the manifest's {@code args}.
     *
     * @throws InvalidValueException for more than 32, or one over 1,024 characters or with NUL
     */
    public Builder extraArgs(List<String> extraArgs) {
      List<String> copy = List.copyOf(extraArgs);
      if (copy.size() > MAX_EXTRA_ARGS) {
        throw new InvalidValueException(
            "extra provider arguments", Integer.toString(copy.size()), "at most 32 are allowed");
      }
      for (String arg : copy) {
        if (arg.length() > MAX_EXTRA_ARG_LENGTH || arg.indexOf('\0') >= 0) {
          throw new InvalidValueException(
              "extra provider argument", arg, "must be at most 1024 characters without NUL");
        }
      }
      this.extraArgs = copy;
      return this;
    }

    /** Sets the request, given as bytes (copied). */
    public Builder input(byte[] input) {
      this.input = CallInput.of(input);
      return this;
    }

    /** Sets the request, read from {@code input} when the call starts. */
    public Builder input(InputStream input) {
      this.input = CallInput.of(input);
      return this;
    }

    /**
     * Ends the call by {@code deadline}, counted from the call, as {@link
     * io.loopx.runtime.run.RunRequest#withDeadline} does; a request still waiting for a worker slot
     * then fails {@code provider_busy}.
     *
     * @throws InvalidValueException when {@code deadline} is not positive
     */
    public Builder deadline(Duration deadline) {
      this.deadline =
          Optional.of(Durations.requirePositive("deadline", Objects.requireNonNull(deadline)));
      return this;
    }

    /** Runs the call one-shot: no warm worker, even where the manifest declares one. */
    public Builder oneShot() {
      this.oneShot = true;
      return this;
    }

    /**
     * Builds the request.
     *
     * @throws InvalidValueException when the scope, the permission or the input is missing
     */
    public DispatchRequest build() {
      ObjectNode s = required(scope, "scope");
      Permission p = required(permission, "permission");
      CallInput in = required(input, "input");
      if (deadline.isPresent()) {
        in = in.withDeadline(deadline.get());
      }
      return new DispatchRequest(this, s, p, oneShot ? in.oneShot() : in);
    }

    private static <T> T required(@Nullable T value, String what) {
      if (value == null) {
        throw new InvalidValueException("dispatch request", "without " + what, "needs " + what);
      }
      return value;
    }
  }
}
