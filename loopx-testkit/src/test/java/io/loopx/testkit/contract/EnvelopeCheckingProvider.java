package io.loopx.testkit.contract;

import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.provider.ProviderException;
import io.loopx.api.provider.ProviderHandler;
import io.loopx.api.provider.ProviderMain;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A well-behaved effectful provider for the kit's own tests, run as a child JVM: it verifies its
 * execution envelope with {@link EnvelopeVerifier} (against {@code demo.recall} and the demo scope,
 * the id and revision from the environment), then requires exactly {@code {"schema_version":
 * "demo_request_v0", "q": STRING}}, before any "effect".
 */
public final class EnvelopeCheckingProvider implements ProviderHandler {
  static final String RESPONSE = "demo_response_v0";

  private EnvelopeCheckingProvider() {}

  /** Runs the provider. */
  public static void main(String[] args) {
    ProviderMain.run(args, new EnvelopeCheckingProvider());
  }

  @Override
  public String responseSchemaVersion() {
    return RESPONSE;
  }

  @Override
  public ObjectNode handle(ObjectNode request) {
    ObjectNode bare =
        EnvelopeVerifier.verify(
            request,
            EnvelopeVerifier.Expectation.fromEnvironment(Fixtures.ACTION, Fixtures.scope()));
    List<String> keys = new ArrayList<>();
    bare.properties().forEach(e -> keys.add(e.getKey()));
    JsonNode version = bare.get("schema_version");
    JsonNode q = bare.get("q");
    if (keys.size() != 2
        || version == null
        || !version.isString()
        || !version.stringValue().equals("demo_request_v0")
        || q == null
        || !q.isString()) {
      throw new ProviderException("request does not match demo_request_v0: keys " + keys);
    }
    ObjectNode response = JsonNodeFactory.instance.objectNode();
    response.put("ok", true);
    response.put("schema_version", RESPONSE);
    response.put("recalled", q.asString());
    return response;
  }
}
