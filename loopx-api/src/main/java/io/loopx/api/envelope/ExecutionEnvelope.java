package io.loopx.api.envelope;

import io.loopx.api.ActionToken;
import io.loopx.api.Digest;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.Revision;
import io.loopx.api.internal.CanonicalWriter;
import io.loopx.api.internal.EnvelopeJson;
import io.loopx.api.json.CanonicalJson;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * One execution envelope ({@value #SCHEMA_VERSION}): binds an action, an effect scope, an extension
 * id and revision, and the digest of one provider request.
 *
 * <p>On the wire it is the value of the request's top-level {@value #REQUEST_KEY} key, exactly
 * {@code {"schema_version", "action", "scope", "extension": {"id", "revision"}, "request_digest"}}
 * in that order (see {@link #toJson()}). It binds a request to an operation; it is not a credential
 * and not authentication.
 *
 * <p>Immutable and thread-safe: the scope is deep-copied on the way in and on the way out. Two
 * envelopes are equal when their scopes have the same canonical JSON (RFC 8785) and all other
 * components are equal.
 *
 * @param action the exact action the request may perform
 * @param scope the structured effect scope: a non-empty object whose canonical JSON is at most
 *     {@value #MAX_SCOPE_BYTES} UTF-8 bytes
 * @param extensionId the id of the extension that receives the request
 * @param revision the active manifest revision of that extension
 * @param requestDigest the {@link #requestDigest(ObjectNode) digest} of the bare request
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ExecutionEnvelope(
    ActionToken action,
    ObjectNode scope,
    ExtensionId extensionId,
    Revision revision,
    Digest requestDigest) {

  /** The envelope's schema version, the value of its {@code schema_version} field. */
  public static final String SCHEMA_VERSION = EnvelopeJson.SCHEMA_VERSION;

  /** The top-level request key that holds the envelope; callers can never supply it. */
  public static final String REQUEST_KEY = "execution_envelope";

  /** The largest canonical JSON form of a scope, in UTF-8 bytes. */
  public static final int MAX_SCOPE_BYTES = EnvelopeJson.MAX_SCOPE_BYTES;

  /**
   * Validates and deep-copies the components.
   *
   * @throws InvalidValueException if the scope is empty, is not I-JSON (see {@link CanonicalJson})
   *     or its canonical form exceeds {@value #MAX_SCOPE_BYTES} bytes
   */
  public ExecutionEnvelope {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(requestDigest, "requestDigest");
    scope = scope.deepCopy();
    EnvelopeJson.checkScope(scope);
  }

  /** Returns a deep copy of the scope. */
  @Override
  public ObjectNode scope() {
    return scope.deepCopy();
  }

  /**
   * Returns a new JSON object holding exactly {@code schema_version}, {@code action}, {@code
   * scope}, {@code extension} ({@code id}, {@code revision}) and {@code request_digest}, in this
   * order.
   */
  public ObjectNode toJson() {
    return EnvelopeJson.of(
        action.value(),
        scope.deepCopy(),
        extensionId.value(),
        revision.value(),
        requestDigest.value());
  }

  /**
   * Returns the SHA-256 digest of the canonical JSON (RFC 8785) of {@code request} without its
   * top-level {@value #REQUEST_KEY} key, whether or not it has one. The input is not modified. Key
   * order does not matter: requests that differ only in key order have the same digest.
   *
   * @throws InvalidValueException if the request is not I-JSON (see {@link CanonicalJson})
   */
  public static Digest requestDigest(ObjectNode request) {
    Objects.requireNonNull(request, "request");
    return CanonicalWriter.digestWithout(request, REQUEST_KEY);
  }

  /** Compares the scopes by their canonical JSON and all other components by equality. */
  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof ExecutionEnvelope that
        && action.equals(that.action)
        && extensionId.equals(that.extensionId)
        && revision.equals(that.revision)
        && requestDigest.equals(that.requestDigest)
        && CanonicalJson.toText(scope).equals(CanonicalJson.toText(that.scope));
  }

  @Override
  public int hashCode() {
    return Objects.hash(action, CanonicalJson.toText(scope), extensionId, revision, requestDigest);
  }

  /** The envelope's wire field names. */
  static final class Fields {
    static final String SCHEMA_VERSION = EnvelopeJson.SCHEMA_VERSION_FIELD;
    static final String ACTION = EnvelopeJson.ACTION;
    static final String SCOPE = EnvelopeJson.SCOPE;
    static final String EXTENSION = EnvelopeJson.EXTENSION;
    static final String REQUEST_DIGEST = EnvelopeJson.REQUEST_DIGEST;
    static final String ID = EnvelopeJson.ID;
    static final String REVISION = EnvelopeJson.REVISION;

    private Fields() {}
  }
}
