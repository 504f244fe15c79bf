package io.loopx.runtime.internal.envelope;

import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.envelope.ExecutionEnvelope;
import io.loopx.api.internal.CanonicalWriter;
import io.loopx.api.internal.EnvelopeJson;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.internal.run.RequestBody;
import java.util.Objects;
import org.apiguardian.api.API;
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
 *   <li>every number in it, as written to the provider, is exactly the value the digest binds: the
 *       ES6 form of its nearest double ({@link ExactNumbers}), else {@link
 *       ErrorKind#REQUEST_INVALID} naming the number and its JSON pointer (caller input);
 *   <li>the scope is a non-empty object of at most {@value ExecutionEnvelope#MAX_SCOPE_BYTES}
 *       canonical bytes, else an {@link InvalidValueException} ({@link ErrorKind#INVALID_VALUE}):
 *       the host derives the scope, so a bad one is a host programming error, not caller input;
 *   <li>the bound request, compact UTF-8 as the provider receives it, is at most {@value
 *       RequestBody#MAX_BYTES} bytes (the cap of {@code ProviderMain}), else {@link
 *       ErrorKind#REQUEST_INVALID} <i>the request with its execution envelope exceeds the
 *       1000000-byte limit</i> (caller input: the caller's bytes can grow when re-serialised,
 *       {@code 1e5} becomes {@code 1E+5}, and the envelope adds a few hundred bytes).
 * </ol>
 *
 * <p>Stateless and thread-safe. The inputs are never modified.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EnvelopeBinder {

  /** The message of a bound request over the limit; {@code ": <n> bytes"} follows it. */
  public static final String TOO_LARGE =
      "the request with its execution envelope exceeds the "
          + RequestBody.MAX_BYTES
          + "-byte limit";

  private static final byte[] NO_BYTES = new byte[0];

  private EnvelopeBinder() {}

  /**
   * A bound request and its bytes on the wire.
   *
   * @param request the bound request (what an in-process provider receives)
   * @param stdin the compact UTF-8 form of {@code request} (what a subprocess receives), not copied
   */
  @SuppressWarnings("ArrayRecordComponent") // internal; created once, read once
  public record Bound(ObjectNode request, byte[] stdin) {}

  /**
   * Returns a new object: a deep copy of {@code request} with its keys in their order, followed by
   * the {@value ExecutionEnvelope#REQUEST_KEY} key holding the {@link ExecutionEnvelope#toJson()
   * envelope} that binds {@code action}, {@code scope}, the extension and the request's digest.
   *
   * @throws LoopxException of kind {@link ErrorKind#REQUEST_INVALID} if the request already holds a
   *     top-level {@value ExecutionEnvelope#REQUEST_KEY} key, is not I-JSON, holds a number that is
   *     not exactly a double or is over the limit once bound
   * @throws InvalidValueException if the scope is empty, not I-JSON or over {@value
   *     ExecutionEnvelope#MAX_SCOPE_BYTES} canonical bytes (a host programming error)
   */
  public static ObjectNode bind(
      ActionToken action, ObjectNode scope, ExtensionId id, Revision revision, ObjectNode request) {
    return bind(action, scope, id, revision, request, false).request();
  }

  /**
   * As {@link #bind}, also returning the bytes a provider subprocess receives on stdin.
   *
   * @throws LoopxException as {@link #bind}
   * @throws InvalidValueException as {@link #bind}
   */
  public static Bound bindForWire(
      ActionToken action, ObjectNode scope, ExtensionId id, Revision revision, ObjectNode request) {
    return bind(action, scope, id, revision, request, true);
  }

  /**
   * Binds; with {@code wire}, also serialises the bound request. Without, the bytes are written
   * only when an upper bound of their length ({@link CanonicalWriter#compactBound}) exceeds the
   * limit, to decide the size check exactly; {@link Bound#stdin()} is then empty.
   */
  private static Bound bind(
      ActionToken action,
      ObjectNode scope,
      ExtensionId id,
      Revision revision,
      ObjectNode request,
      boolean wire) {
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
    // One walk: canonical digest of the request, the number rule's verdict, the deep copy (exactly
    // what was digested) and a bound of its compact length.
    ExactNumbers.Verdict numbers = ExactNumbers.observer();
    CanonicalWriter.Copy copy;
    try {
      copy = CanonicalWriter.copyAndDigest(request, ExecutionEnvelope.REQUEST_KEY, numbers);
    } catch (InvalidValueException e) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID, "request has no canonical JSON form: " + e.getMessage(), e);
    }
    if (!numbers.allExact()) {
      // Walks again in document order and throws for the first number that is not exact.
      ExactNumbers.require(request);
    }
    // The envelope's JSON as ExecutionEnvelope#toJson makes it, with one copy of the scope instead
    // of the record's two (in and out): checked by the same rule, before the bound tree is built.
    ObjectNode scopeCopy = scope.deepCopy();
    EnvelopeJson.checkScope(scopeCopy);
    ObjectNode envelopeJson =
        EnvelopeJson.of(
            action.value(), scopeCopy, id.value(), revision.value(), copy.digest().value());
    ObjectNode bound = copy.copy();
    bound.set(ExecutionEnvelope.REQUEST_KEY, envelopeJson);
    long lengthBound =
        copy.compactBound()
            + 1 // the comma before the envelope's key
            + CanonicalWriter.compactBound(
                JsonNodeFactory.instance
                    .objectNode()
                    .set(ExecutionEnvelope.REQUEST_KEY, envelopeJson));
    if (!wire && lengthBound <= RequestBody.MAX_BYTES) {
      return new Bound(bound, NO_BYTES);
    }
    byte[] stdin = StrictJson.toCompactBytes(bound);
    if (stdin.length > RequestBody.MAX_BYTES) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID, TOO_LARGE + ": " + stdin.length + " bytes");
    }
    return new Bound(bound, stdin);
  }
}
