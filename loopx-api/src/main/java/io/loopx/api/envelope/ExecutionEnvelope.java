package io.loopx.api.envelope;

import io.loopx.api.ActionToken;
import io.loopx.api.Digest;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.Revision;
import io.loopx.api.internal.CanonicalWriter;
import io.loopx.api.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
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
  public static final String SCHEMA_VERSION = "loopx_extension_execution_envelope_v0";

  /** The top-level request key that holds the envelope; callers can never supply it. */
  public static final String REQUEST_KEY = "execution_envelope";

  /** The largest canonical JSON form of a scope, in UTF-8 bytes. */
  public static final int MAX_SCOPE_BYTES = 16_384;

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
    checkScope(scope);
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
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    ObjectNode extension = nodes.objectNode();
    extension.put(Fields.ID, extensionId.value());
    extension.put(Fields.REVISION, revision.value());
    ObjectNode json = nodes.objectNode();
    json.put(Fields.SCHEMA_VERSION, SCHEMA_VERSION);
    json.put(Fields.ACTION, action.value());
    json.set(Fields.SCOPE, scope.deepCopy());
    json.set(Fields.EXTENSION, extension);
    json.put(Fields.REQUEST_DIGEST, requestDigest.value());
    return json;
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

  /**
   * Checks the scope rules and returns the canonical text of {@code scope}.
   *
   * @throws InvalidValueException if the scope is empty, not I-JSON or too large
   */
  static String checkScope(ObjectNode scope) {
    if (scope.isEmpty()) {
      throw new InvalidValueException(
          "execution envelope scope", "{}", "must be a non-empty JSON object");
    }
    String canonical = CanonicalJson.toText(scope);
    byte[] bytes = canonical.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_SCOPE_BYTES) {
      throw new InvalidValueException(
          "execution envelope scope",
          abbreviate(canonical),
          "its canonical JSON is "
              + bytes.length
              + " bytes, over the "
              + MAX_SCOPE_BYTES
              + "-byte limit");
    }
    return canonical;
  }

  private static String abbreviate(String s) {
    if (s.length() <= 64) {
      return s;
    }
    int end = Character.isHighSurrogate(s.charAt(60)) ? 60 : 61;
    return s.substring(0, end) + "...";
  }

  /** The envelope's wire field names. */
  static final class Fields {
    static final String SCHEMA_VERSION = "schema_version";
    static final String ACTION = "action";
    static final String SCOPE = "scope";
    static final String EXTENSION = "extension";
    static final String REQUEST_DIGEST = "request_digest";
    static final String ID = "id";
    static final String REVISION = "revision";

    private Fields() {}
  }
}
