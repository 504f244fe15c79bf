package io.loopx.samples.textstats;

import com.networknt.schema.Schema;
import io.loopx.api.provider.ProviderException;
import io.loopx.api.provider.ProviderHandler;
import io.loopx.api.provider.ProviderMain;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code loopx-text-stats} provider (docs/contract/samples.md), started by a host as {@code
 * java_main}.
 *
 * <p>Request (stdin): {@code {"schema_version":"loopx_text_stats_request_v0","text":STRING}},
 * validated against {@code /schemas/request.schema.json}; any other shape (a missing or extra key,
 * another schema version, a text that is not a string) is refused with {@code ok:false}, an error
 * naming the problem, and exit 1. Response (stdout): {@code {"ok":true,
 * "schema_version":"loopx_text_stats_response_v0","extension_id":"loopx-text-stats",
 * "request_schema_version":"loopx_text_stats_request_v0","result":{"characters":N,"words":N,
 * "lines":N}}} (see {@link TextStats}), exit 0. With {@code --doctor} it only checks that its
 * request schema loads, and exits 0 without reading stdin or writing anything.
 *
 * <p>Not thread-safe: {@link ProviderMain} uses one instance from one thread.
 */
public final class TextStatsProvider implements ProviderHandler {
  /** The extension id. */
  public static final String EXTENSION_ID = "loopx-text-stats";

  /** The request schema version. */
  public static final String REQUEST_SCHEMA_VERSION = "loopx_text_stats_request_v0";

  /** The response schema version. */
  public static final String RESPONSE_SCHEMA_VERSION = "loopx_text_stats_response_v0";

  private @Nullable Schema requestSchema;

  /** Creates the provider; the request schema is loaded on first use. */
  public TextStatsProvider() {}

  /** Runs the provider on this process's stdin and stdout, then exits (0 or 1). */
  public static void main(String[] args) {
    ProviderMain.run(args, new TextStatsProvider());
  }

  @Override
  public String responseSchemaVersion() {
    return RESPONSE_SCHEMA_VERSION;
  }

  /** Checks that the request schema is in the jar and compiles; no side effects. */
  @Override
  public void doctor() {
    requestSchema();
  }

  @Override
  public ObjectNode handle(ObjectNode request) {
    List<String> problems = JsonSchemas.problems(requestSchema(), request);
    if (!problems.isEmpty()) {
      throw new ProviderException(
          "request does not match " + REQUEST_SCHEMA_VERSION + ": " + String.join("; ", problems));
    }
    TextStats stats = TextStats.of(request.get("text").asString());
    ObjectNode response = JsonNodeFactory.instance.objectNode();
    response.put("ok", true);
    response.put("schema_version", RESPONSE_SCHEMA_VERSION);
    response.put("extension_id", EXTENSION_ID);
    response.put("request_schema_version", REQUEST_SCHEMA_VERSION);
    response.set("result", stats.toJson());
    return response;
  }

  /** Loads the request schema on first use; the handler is used by one thread. */
  private Schema requestSchema() {
    Schema schema = requestSchema;
    if (schema == null) {
      schema = JsonSchemas.load(JsonSchemas.REQUEST);
      requestSchema = schema;
    }
    return schema;
  }
}
