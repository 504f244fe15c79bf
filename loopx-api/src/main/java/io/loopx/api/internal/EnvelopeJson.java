package io.loopx.api.internal;

import io.loopx.api.InvalidValueException;
import java.nio.charset.StandardCharsets;
import org.apiguardian.api.API;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON form and the scope rule of an execution envelope, shared by {@code ExecutionEnvelope}
 * and the runtime's binder (which builds the form without the record's two scope copies).
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public final class EnvelopeJson {
  /** The envelope's schema version, the value of its {@code schema_version} field. */
  public static final String SCHEMA_VERSION = "loopx_extension_execution_envelope_v0";

  /** The largest canonical JSON form of a scope, in UTF-8 bytes. */
  public static final int MAX_SCOPE_BYTES = 16_384;

  /** Wire field names. */
  public static final String SCHEMA_VERSION_FIELD = "schema_version";

  /** Wire field names. */
  public static final String ACTION = "action";

  /** Wire field names. */
  public static final String SCOPE = "scope";

  /** Wire field names. */
  public static final String EXTENSION = "extension";

  /** Wire field names. */
  public static final String REQUEST_DIGEST = "request_digest";

  /** Wire field names. */
  public static final String ID = "id";

  /** Wire field names. */
  public static final String REVISION = "revision";

  private EnvelopeJson() {}

  /**
   * Checks the scope rules: a non-empty object, I-JSON, whose canonical JSON is at most {@value
   * #MAX_SCOPE_BYTES} UTF-8 bytes.
   *
   * @throws InvalidValueException if the scope is empty, not I-JSON or too large
   */
  public static void checkScope(ObjectNode scope) {
    if (scope.isEmpty()) {
      throw new InvalidValueException(
          "execution envelope scope", "{}", "must be a non-empty JSON object");
    }
    byte[] canonical = CanonicalWriter.toBytes(scope);
    if (canonical.length > MAX_SCOPE_BYTES) {
      throw new InvalidValueException(
          "execution envelope scope",
          abbreviate(new String(canonical, StandardCharsets.UTF_8)),
          "its canonical JSON is "
              + canonical.length
              + " bytes, over the "
              + MAX_SCOPE_BYTES
              + "-byte limit");
    }
  }

  /**
   * Returns a new object holding exactly {@code schema_version}, {@code action}, {@code scope} (the
   * given node itself, not a copy), {@code extension} ({@code id}, {@code revision}) and {@code
   * request_digest}, in this order.
   */
  public static ObjectNode of(
      String action, ObjectNode scope, String extensionId, String revision, String requestDigest) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    ObjectNode extension = nodes.objectNode();
    extension.put(ID, extensionId);
    extension.put(REVISION, revision);
    ObjectNode json = nodes.objectNode();
    json.put(SCHEMA_VERSION_FIELD, SCHEMA_VERSION);
    json.put(ACTION, action);
    json.set(SCOPE, scope);
    json.set(EXTENSION, extension);
    json.put(REQUEST_DIGEST, requestDigest);
    return json;
  }

  private static String abbreviate(String s) {
    if (s.length() <= 64) {
      return s;
    }
    int end = Character.isHighSurrogate(s.charAt(60)) ? 60 : 61;
    return s.substring(0, end) + "...";
  }
}
