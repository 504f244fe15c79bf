package io.loopx.api.envelope;

import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.envelope.ExecutionEnvelope.Fields;
import io.loopx.api.internal.CanonicalWriter;
import io.loopx.api.internal.EnvelopeJson;
import io.loopx.api.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a Java provider calls before any effect: checks that the {@value
 * ExecutionEnvelope#REQUEST_KEY} of a received request binds exactly the operation the provider is
 * about to perform, and returns the bare request.
 *
 * <pre>{@code
 * ObjectNode request =
 *     EnvelopeVerifier.verify(
 *         received, Expectation.fromEnvironment(ActionToken.of("notes.write"), scope));
 * }</pre>
 *
 * <p><b>It binds a request; it is not a credential and not authentication:</b> services must still
 * authenticate and authorize. The checks (shape, schema version, action, scope by canonical JSON,
 * extension, request digest), their order and the exact {@link ErrorKind#ENVELOPE_MISMATCH} message
 * of each are in docs/contract/envelope-verification.md. Stateless and thread-safe; the input is
 * never modified.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class EnvelopeVerifier {
  /** The message for an envelope that is missing or does not have the schema's shape. */
  public static final String SCHEMA_MESSAGE = "execution envelope fields do not match the schema";

  private static final Set<String> ENVELOPE_FIELDS =
      Set.of(
          Fields.SCHEMA_VERSION,
          Fields.ACTION,
          Fields.SCOPE,
          Fields.EXTENSION,
          Fields.REQUEST_DIGEST);
  private static final Set<String> EXTENSION_FIELDS = Set.of(Fields.ID, Fields.REVISION);

  private EnvelopeVerifier() {}

  /**
   * Verifies the envelope of {@code requestWithEnvelope} against {@code expected} and returns a new
   * object holding the request without its {@value ExecutionEnvelope#REQUEST_KEY} key, the other
   * keys in their order (a deep copy: changing it does not change the input).
   *
   * @throws LoopxException of kind {@link ErrorKind#ENVELOPE_MISMATCH} for the first failing check
   *     in the order of docs/contract/envelope-verification.md
   */
  public static ObjectNode verify(ObjectNode requestWithEnvelope, Expectation expected) {
    Objects.requireNonNull(requestWithEnvelope, "requestWithEnvelope");
    Objects.requireNonNull(expected, "expected");
    JsonNode envelope = requestWithEnvelope.path(ExecutionEnvelope.REQUEST_KEY);
    if (!hasShape(envelope)) {
      throw mismatch(SCHEMA_MESSAGE);
    }
    if (!ExecutionEnvelope.SCHEMA_VERSION.equals(text(envelope, Fields.SCHEMA_VERSION))) {
      throw mismatchOf(Fields.SCHEMA_VERSION);
    }
    if (!expected.action().value().equals(text(envelope, Fields.ACTION))) {
      throw mismatchOf(Fields.ACTION);
    }
    if (!expected.canonicalScope().equals(canonicalOrNull(envelope.path(Fields.SCOPE)))) {
      throw mismatchOf(Fields.SCOPE);
    }
    JsonNode extension = envelope.path(Fields.EXTENSION);
    if (!expected.extensionId().value().equals(text(extension, Fields.ID))
        || !expected.revision().value().equals(text(extension, Fields.REVISION))) {
      throw mismatchOf(Fields.EXTENSION);
    }
    // One walk digests the request without its envelope and copies exactly what it digested.
    CanonicalWriter.Copy bare;
    try {
      bare =
          CanonicalWriter.copyAndDigest(requestWithEnvelope, ExecutionEnvelope.REQUEST_KEY, null);
    } catch (InvalidValueException e) {
      throw new LoopxException(ErrorKind.ENVELOPE_MISMATCH, messageOf(Fields.REQUEST_DIGEST), e);
    }
    if (!bare.digest().value().equals(text(envelope, Fields.REQUEST_DIGEST))) {
      throw mismatchOf(Fields.REQUEST_DIGEST);
    }
    return bare.copy();
  }

  private static boolean hasShape(JsonNode envelope) {
    if (!envelope.isObject() || !hasExactly(envelope.propertyNames(), ENVELOPE_FIELDS)) {
      return false;
    }
    JsonNode extension = envelope.path(Fields.EXTENSION);
    return envelope.path(Fields.SCHEMA_VERSION).isString()
        && envelope.path(Fields.ACTION).isString()
        && envelope.path(Fields.SCOPE).isObject()
        && extension.isObject()
        && hasExactly(extension.propertyNames(), EXTENSION_FIELDS)
        && extension.path(Fields.ID).isString()
        && extension.path(Fields.REVISION).isString()
        && envelope.path(Fields.REQUEST_DIGEST).isString();
  }

  private static boolean hasExactly(Collection<String> names, Set<String> expected) {
    // JSON object keys are unique, so equal sizes and containment mean equal sets.
    return names.size() == expected.size() && expected.containsAll(names);
  }

  /** Returns the string at {@code field}; the shape check guarantees that it is one. */
  private static String text(JsonNode object, String field) {
    return object.path(field).asString();
  }

  private static @Nullable String canonicalOrNull(JsonNode node) {
    try {
      return CanonicalJson.toText(node);
    } catch (InvalidValueException e) {
      return null; // not I-JSON, so it cannot equal the expected scope
    }
  }

  private static String messageOf(String field) {
    return "execution envelope " + field + " does not match the operation";
  }

  private static LoopxException mismatchOf(String field) {
    return mismatch(messageOf(field));
  }

  private static LoopxException mismatch(String message) {
    return new LoopxException(ErrorKind.ENVELOPE_MISMATCH, message);
  }

  /**
   * What the provider expects an envelope to bind: its action and scope, and its own extension id
   * and active revision. Immutable and thread-safe; the scope is deep-copied in and out, and two
   * expectations are equal when their scopes have the same canonical JSON and all other components
   * are equal.
   *
   * @param action the action the provider is about to perform
   * @param scope the exact effect scope the provider is about to use: a non-empty object whose
   *     canonical JSON is at most {@value ExecutionEnvelope#MAX_SCOPE_BYTES} bytes
   * @param extensionId the provider's own extension id
   * @param revision the provider's active manifest revision
   */
  public record Expectation(
      ActionToken action, ObjectNode scope, ExtensionId extensionId, Revision revision) {

    /** Environment variable that holds the provider's extension id. */
    public static final String ID_VARIABLE = "LOOPX_EXTENSION_ID";

    /** Environment variable that holds the provider's active manifest revision. */
    public static final String REVISION_VARIABLE = "LOOPX_EXTENSION_REVISION";

    /**
     * Validates and deep-copies the components.
     *
     * @throws InvalidValueException if the scope is empty, not I-JSON or over {@value
     *     ExecutionEnvelope#MAX_SCOPE_BYTES} canonical bytes (a programming error of the provider)
     */
    public Expectation {
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(scope, "scope");
      Objects.requireNonNull(extensionId, "extensionId");
      Objects.requireNonNull(revision, "revision");
      scope = scope.deepCopy();
      EnvelopeJson.checkScope(scope);
    }

    /**
     * Returns the expectation for {@code action} and {@code scope}, with the id and revision read
     * from the process environment ({@value #ID_VARIABLE}, {@value #REVISION_VARIABLE}), which
     * LoopX sets for every provider it starts.
     *
     * @throws LoopxException of kind {@link ErrorKind#ENVELOPE_MISMATCH} naming each variable that
     *     is missing or invalid
     * @throws InvalidValueException if the scope breaks the scope rules
     */
    public static Expectation fromEnvironment(ActionToken action, ObjectNode scope) {
      return fromEnvironment(action, scope, System.getenv());
    }

    /**
     * As {@link #fromEnvironment(ActionToken, ObjectNode)}, reading the variables from {@code env}
     * instead of the process environment (for tests and embedding).
     *
     * @throws LoopxException of kind {@link ErrorKind#ENVELOPE_MISMATCH} naming each variable that
     *     is missing or invalid
     * @throws InvalidValueException if the scope breaks the scope rules
     */
    public static Expectation fromEnvironment(
        ActionToken action, ObjectNode scope, Map<String, String> env) {
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(scope, "scope");
      Objects.requireNonNull(env, "env");
      List<String> problems = new ArrayList<>(2);
      List<InvalidValueException> causes = new ArrayList<>(2);
      ExtensionId id = read(env, ID_VARIABLE, ExtensionId::of, problems, causes);
      Revision revision = read(env, REVISION_VARIABLE, Revision::of, problems, causes);
      if (id == null || revision == null) {
        throw new LoopxException(
            ErrorKind.ENVELOPE_MISMATCH,
            "execution envelope cannot be verified: " + String.join("; ", problems),
            causes.isEmpty() ? null : causes.get(0));
      }
      return new Expectation(action, scope, id, revision);
    }

    private static <T> @Nullable T read(
        Map<String, String> env,
        String variable,
        Function<String, T> parse,
        List<String> problems,
        List<InvalidValueException> causes) {
      String value = env.get(variable);
      if (value == null) {
        problems.add("environment variable " + variable + " is not set");
        return null;
      }
      try {
        return parse.apply(value);
      } catch (InvalidValueException e) {
        problems.add("environment variable " + variable + " is invalid: " + e.getMessage());
        causes.add(e);
        return null;
      }
    }

    /** Returns a deep copy of the scope. */
    @Override
    public ObjectNode scope() {
      return scope.deepCopy();
    }

    /** The canonical JSON text of the scope, without copying it. */
    String canonicalScope() {
      return CanonicalJson.toText(scope);
    }

    /** Compares the scopes by their canonical JSON and all other components by equality. */
    @Override
    public boolean equals(@Nullable Object other) {
      return other instanceof Expectation that
          && action.equals(that.action)
          && extensionId.equals(that.extensionId)
          && revision.equals(that.revision)
          && canonicalScope().equals(that.canonicalScope());
    }

    @Override
    public int hashCode() {
      return Objects.hash(action, canonicalScope(), extensionId, revision);
    }
  }
}
