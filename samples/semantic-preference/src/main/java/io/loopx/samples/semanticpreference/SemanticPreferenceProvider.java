package io.loopx.samples.semanticpreference;

import com.networknt.schema.Schema;
import io.loopx.api.ActionToken;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.envelope.EnvelopeVerifier.Expectation;
import io.loopx.api.provider.ProviderException;
import io.loopx.api.provider.ProviderHandler;
import io.loopx.api.provider.ProviderMain;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code semantic-preference-local} provider (docs/contract/cli.md), started by a host as
 * {@code java_main} for {@code loopx semantic-preference recall}.
 *
 * <p>Each request is handled in this order, and the first failure is an {@code ok:false} response
 * naming the problem, with exit 1:
 *
 * <ol>
 *   <li><b>Envelope.</b> {@link EnvelopeVerifier#verify} checks the request's {@code
 *       execution_envelope} against the action {@value #ACTION_NAME}, the scope {@code
 *       {"capability_id":"semantic-preference","operation":"recall"}} and the extension id and
 *       revision in {@code LOOPX_EXTENSION_ID} / {@code LOOPX_EXTENSION_REVISION}. A missing,
 *       malformed or mismatched envelope (other action, other or wider scope, other extension or
 *       revision, a request changed after binding) or a missing variable is refused with the
 *       verifier's message, before anything else is done.
 *   <li><b>Bare request.</b> The request without its envelope must be exactly {@code
 *       {"schema_version":"semantic_preference_request_v0","query":STRING,"limit":INTEGER}},
 *       checked against {@code /schemas/request.schema.json}: {@code limit} is optional (default
 *       {@value #DEFAULT_LIMIT}) and within 1..{@value #MAX_LIMIT}; no other key. The query must
 *       not be blank: it needs a code point for which neither {@link Character#isWhitespace(int)}
 *       nor {@link Character#isSpaceChar(int)} holds.
 *   <li><b>Recall.</b> Only now is the corpus consulted: {@link PreferenceCorpus#recall} ranks the
 *       preferences by distinct-token overlap with the query, ties by {@code preference_ref}.
 * </ol>
 *
 * <p>Response (stdout): {@code {"ok":true,"schema_version":
 * "semantic_preference_provider_response_v0","items":[{"preference_ref":...,"summary":...}]}}, at
 * most {@code limit} items, exit 0. With {@code --doctor} it loads the request schema and the
 * corpus from its jar and exits 0, reading no stdin and writing nothing.
 *
 * <p>Not thread-safe: {@link ProviderMain} uses one instance from one thread.
 */
public final class SemanticPreferenceProvider implements ProviderHandler {
  /** The extension id. */
  public static final String EXTENSION_ID = "semantic-preference-local";

  /** The capability this provider implements. */
  public static final String CAPABILITY_ID = "semantic-preference";

  /** The operation within the capability, part of the expected scope. */
  public static final String OPERATION = "recall";

  /** The text of {@link #ACTION}. */
  public static final String ACTION_NAME = "semantic_preference.recall";

  /** The action the execution envelope must bind. */
  public static final ActionToken ACTION = ActionToken.of(ACTION_NAME);

  /** The request schema version. */
  public static final String REQUEST_SCHEMA_VERSION = "semantic_preference_request_v0";

  /** The response schema version. */
  public static final String RESPONSE_SCHEMA_VERSION = "semantic_preference_provider_response_v0";

  /** The number of items returned when the request has no {@code limit}. */
  public static final int DEFAULT_LIMIT = 5;

  /** The largest {@code limit} accepted. */
  public static final int MAX_LIMIT = 20;

  private final Map<String, String> environment;
  private final Supplier<PreferenceCorpus> corpusSource;
  private @Nullable Schema requestSchema;
  private @Nullable PreferenceCorpus corpus;

  /**
   * Creates the provider for this process: the expected id and revision come from the process
   * environment, the corpus from the jar; both schema and corpus are loaded on first use.
   */
  public SemanticPreferenceProvider() {
    this(System.getenv(), PreferenceCorpus::load);
  }

  /**
   * Creates the provider with the given environment and corpus source (a test seam). The source is
   * called at most once, and only for a request that passed every check, or by the doctor.
   */
  SemanticPreferenceProvider(Map<String, String> environment, Supplier<PreferenceCorpus> corpus) {
    this.environment = Map.copyOf(environment);
    this.corpusSource = Objects.requireNonNull(corpus, "corpus");
  }

  /** Runs the provider on this process's stdin and stdout, then exits (0 or 1). */
  public static void main(String[] args) {
    ProviderMain.run(args, new SemanticPreferenceProvider());
  }

  /**
   * Returns a new object holding the scope the envelope must bind: {@code
   * {"capability_id":"semantic-preference","operation":"recall"}}.
   */
  public static ObjectNode scope() {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", CAPABILITY_ID);
    scope.put("operation", OPERATION);
    return scope;
  }

  @Override
  public String responseSchemaVersion() {
    return RESPONSE_SCHEMA_VERSION;
  }

  /** Loads the request schema and the corpus from the jar; no other I/O, no writes. */
  @Override
  public void doctor() {
    requestSchema();
    corpus();
  }

  @Override
  public ObjectNode handle(ObjectNode request) {
    ObjectNode bare =
        EnvelopeVerifier.verify(request, Expectation.fromEnvironment(ACTION, scope(), environment));
    List<String> problems = JsonSchemas.problems(requestSchema(), bare);
    if (!problems.isEmpty()) {
      throw refusal(String.join("; ", problems));
    }
    String query = bare.get("query").asString();
    if (isBlank(query)) {
      throw refusal("$.query: must not be blank");
    }
    JsonNode limitNode = bare.get("limit");
    int limit = limitNode == null ? DEFAULT_LIMIT : limitNode.asInt();

    ArrayNode items = JsonNodeFactory.instance.arrayNode();
    for (Preference p : corpus().recall(query, limit)) {
      items.add(p.toJson());
    }
    ObjectNode response = JsonNodeFactory.instance.objectNode();
    response.put("ok", true);
    response.put("schema_version", RESPONSE_SCHEMA_VERSION);
    response.set("items", items);
    return response;
  }

  private static ProviderException refusal(String problems) {
    return new ProviderException(
        "request does not match " + REQUEST_SCHEMA_VERSION + ": " + problems);
  }

  /** True when no code point of {@code s} is outside whitespace and space separators. */
  static boolean isBlank(String s) {
    return s.codePoints().allMatch(cp -> Character.isWhitespace(cp) || Character.isSpaceChar(cp));
  }

  private Schema requestSchema() {
    Schema schema = requestSchema;
    if (schema == null) {
      schema = JsonSchemas.load(JsonSchemas.REQUEST);
      requestSchema = schema;
    }
    return schema;
  }

  private PreferenceCorpus corpus() {
    PreferenceCorpus loaded = corpus;
    if (loaded == null) {
      loaded = Objects.requireNonNull(corpusSource.get(), "corpus source returned null");
      corpus = loaded;
    }
    return loaded;
  }
}
