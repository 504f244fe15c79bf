package io.loopx.api.envelope;

import io.loopx.api.ActionToken;
import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.api.json.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** Fixtures shared by the envelope tests of this module (the binder lives in loopx-runtime). */
final class Envelopes {
  static final ActionToken ACTION = ActionToken.of("files.write");
  static final ExtensionId ID = ExtensionId.of("demo-writer");
  static final Revision REVISION = Revision.of("0123456789abcdef");
  static final String SCOPE_JSON = "{\"path\":\"notes/today.md\",\"mode\":\"append\"}";

  private Envelopes() {}

  static ObjectNode json(String text) {
    return StrictJson.parseObject(text.getBytes(StandardCharsets.UTF_8));
  }

  static ObjectNode scope() {
    return json(SCOPE_JSON);
  }

  static EnvelopeVerifier.Expectation expectation() {
    return new EnvelopeVerifier.Expectation(ACTION, scope(), ID, REVISION);
  }

  static Map<String, String> env() {
    return Map.of("LOOPX_EXTENSION_ID", ID.value(), "LOOPX_EXTENSION_REVISION", REVISION.value());
  }

  /** Binds the fixed envelope to a copy of {@code request}, as the runtime's binder does. */
  static ObjectNode bind(ObjectNode request) {
    ExecutionEnvelope envelope =
        new ExecutionEnvelope(
            ACTION, scope(), ID, REVISION, ExecutionEnvelope.requestDigest(request));
    ObjectNode bound = request.deepCopy();
    bound.set(ExecutionEnvelope.REQUEST_KEY, envelope.toJson());
    return bound;
  }

  /** Returns the envelope object inside a bound request, for in-place mutation by a test. */
  static ObjectNode envelopeOf(ObjectNode bound) {
    return (ObjectNode) bound.get(ExecutionEnvelope.REQUEST_KEY);
  }
}
