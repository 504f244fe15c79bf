package io.loopx.testkit.contract;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.Revision;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.envelope.ExecutionEnvelope;
import io.loopx.runtime.internal.conformance.ContractHook;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an effectful provider's capability command binds into the execution envelope, for the
 * contract kit: the action, its scope and the permission the operation needs
 * (docs/contract/dispatch.md). The kit dispatches through the capability the manifest's only {@code
 * [[implements]]} names, unless {@code capabilityId} picks one.
 *
 * <p>{@link #bind} binds a request exactly as the host does, so a provider's own tests can send it
 * correctly bound and deliberately broken envelopes.
 *
 * <p>Immutable: the scope is deep-copied in and out.
 *
 * @param action the action the provider expects
 * @param scope the effect scope the provider expects (a non-empty object)
 * @param permission the permission the operation needs (declared and required by the manifest)
 * @param capabilityId the implemented capability to dispatch through, when the manifest implements
 *     more than one
 */
@API(status = API.Status.STABLE, since = "1.0")
public record EnvelopeBinding(
    ActionToken action,
    ObjectNode scope,
    Permission permission,
    Optional<CapabilityId> capabilityId) {

  /**
   * Rejects nulls and an empty scope, and copies the scope. (A scope over {@value
   * ExecutionEnvelope#MAX_SCOPE_BYTES} canonical bytes fails when the kit binds it.)
   *
   * @throws InvalidValueException if the scope is empty
   */
  public EnvelopeBinding {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(permission, "permission");
    Objects.requireNonNull(capabilityId, "capabilityId");
    scope = Objects.requireNonNull(scope, "scope").deepCopy();
    if (scope.isEmpty()) {
      throw new InvalidValueException("envelope binding scope", "{}", "must be a non-empty object");
    }
  }

  /** Returns a binding that dispatches through the manifest's only implemented capability. */
  public static EnvelopeBinding of(ActionToken action, ObjectNode scope, Permission permission) {
    return new EnvelopeBinding(action, scope, permission, Optional.empty());
  }

  /**
   * Returns {@code request} bound as LoopX binds it before a dispatch: a copy of the request
   * followed by the {@value ExecutionEnvelope#REQUEST_KEY} key holding the envelope that binds this
   * binding's action and scope, {@code id}, {@code revision} and the request's digest. The provider
   * re-verifies it with {@link EnvelopeVerifier}.
   *
   * @throws LoopxException of kind {@link ErrorKind#REQUEST_INVALID} if {@code request} already
   *     holds an envelope, is not I-JSON, holds a number that is not exactly the ES6 form of its
   *     nearest double, or is over 1,000,000 bytes once bound (docs/contract/dispatch.md#binding)
   * @throws InvalidValueException if the scope is over {@value ExecutionEnvelope#MAX_SCOPE_BYTES}
   *     canonical bytes or not I-JSON
   */
  public ObjectNode bind(ExtensionId id, Revision revision, ObjectNode request) {
    return ContractHook.bind(action, scope, id, revision, request);
  }

  /** Returns a copy of the scope. */
  @Override
  public ObjectNode scope() {
    return scope.deepCopy();
  }
}
