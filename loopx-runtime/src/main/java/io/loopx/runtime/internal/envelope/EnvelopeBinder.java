package io.loopx.runtime.internal.envelope;

import io.loopx.api.ActionToken;
import io.loopx.api.Digest;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.envelope.ExecutionEnvelope;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Binds an {@link ExecutionEnvelope} to a provider request: the last step of a governed capability
 * dispatch, after the implementation was resolved and the permission and domain policy checks
 * passed. Only the host binds envelopes; a caller can never supply one. The provider re-verifies
 * the result with {@link EnvelopeVerifier} before any effect.
 *
 * <p>The envelope binds a request to an operation; it is not a credential and not authentication.
 *
 * <p>Checks, in this order:
 *
 * <ol>
 *   <li>the request has no top-level {@value ExecutionEnvelope#REQUEST_KEY} key, else {@link
 *       ErrorKind#REQUEST_INVALID} <i>request contains reserved field `execution_envelope`</i>
 *       (caller input);
 *   <li>the request is I-JSON, so that it has a canonical digest, else {@link
 *       ErrorKind#REQUEST_INVALID} naming the value (caller input);
 *   <li>the scope is a non-empty object of at most {@value ExecutionEnvelope#MAX_SCOPE_BYTES}
 *       canonical bytes, else an {@link InvalidValueException} ({@link ErrorKind#INVALID_VALUE}):
 *       the host derives the scope, so a bad one is a host programming error, not caller input.
 * </ol>
 *
 * <p>Stateless and thread-safe. The inputs are never modified.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EnvelopeBinder {

  private EnvelopeBinder() {}

  /**
   * Returns a new object: a deep copy of {@code request} with its keys in their order, followed by
   * the {@value ExecutionEnvelope#REQUEST_KEY} key holding the {@link ExecutionEnvelope#toJson()
   * envelope} that binds {@code action}, {@code scope}, the extension and the request's digest.
   *
   * @throws LoopxException of kind {@link ErrorKind#REQUEST_INVALID} if the request already holds a
   *     top-level {@value ExecutionEnvelope#REQUEST_KEY} key or is not I-JSON
   * @throws InvalidValueException if the scope is empty, not I-JSON or over {@value
   *     ExecutionEnvelope#MAX_SCOPE_BYTES} canonical bytes (a host programming error)
   */
  public static ObjectNode bind(
      ActionToken action, ObjectNode scope, ExtensionId id, Revision revision, ObjectNode request) {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(request, "request");
    if (request.has(ExecutionEnvelope.REQUEST_KEY)) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "request contains reserved field `" + ExecutionEnvelope.REQUEST_KEY + "`");
    }
    Digest digest;
    try {
      digest = ExecutionEnvelope.requestDigest(request);
    } catch (InvalidValueException e) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID, "request has no canonical JSON form: " + e.getMessage(), e);
    }
    ExecutionEnvelope envelope = new ExecutionEnvelope(action, scope, id, revision, digest);
    ObjectNode bound = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> e : request.properties()) {
      bound.set(e.getKey(), e.getValue().deepCopy());
    }
    bound.set(ExecutionEnvelope.REQUEST_KEY, envelope.toJson());
    return bound;
  }
}
