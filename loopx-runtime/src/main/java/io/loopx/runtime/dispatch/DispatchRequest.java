package io.loopx.runtime.dispatch;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a capability command asks to dispatch: the capability and protocol, the action and its scope
 * (bound into the execution envelope), the permission the operation needs, optionally the provider
 * the caller names, and bounded extra provider arguments from host configuration.
 *
 * <p>Immutable: the scope is deep-copied in and out.
 *
 * @param capabilityId the capability
 * @param protocol the protocol
 * @param action the action bound into the envelope
 * @param scope the effect scope bound into the envelope (non-empty)
 * @param permission the permission the operation needs
 * @param providerId the provider the caller selected, if any
 * @param extraArgs host-configured provider arguments appended after the manifest's {@code args}
 *     (at most 32, each at most 1,024 characters, no NUL)
 */
@API(status = API.Status.STABLE, since = "0.1")
public record DispatchRequest(
    CapabilityId capabilityId,
    ProtocolId protocol,
    ActionToken action,
    ObjectNode scope,
    Permission permission,
    Optional<ProviderId> providerId,
    List<String> extraArgs) {
  /** The most extra arguments a dispatch may append. */
  public static final int MAX_EXTRA_ARGS = 32;

  /** The longest extra argument, in characters. */
  public static final int MAX_EXTRA_ARG_LENGTH = 1024;

  /** Validates and copies. */
  public DispatchRequest {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(action, "action");
    scope = Objects.requireNonNull(scope, "scope").deepCopy();
    Objects.requireNonNull(permission, "permission");
    Objects.requireNonNull(providerId, "providerId");
    extraArgs = List.copyOf(extraArgs);
    if (scope.isEmpty()) {
      throw new InvalidValueException("dispatch scope", "{}", "must be a non-empty object");
    }
    if (extraArgs.size() > MAX_EXTRA_ARGS) {
      throw new InvalidValueException(
          "extra provider arguments", Integer.toString(extraArgs.size()), "at most 32 are allowed");
    }
    for (String arg : extraArgs) {
      if (arg.length() > MAX_EXTRA_ARG_LENGTH || arg.indexOf('\0') >= 0) {
        throw new InvalidValueException(
            "extra provider argument", arg, "must be at most 1024 characters without NUL");
      }
    }
  }

  /** Returns a copy of the scope. */
  @Override
  public ObjectNode scope() {
    return scope.deepCopy();
  }
}
