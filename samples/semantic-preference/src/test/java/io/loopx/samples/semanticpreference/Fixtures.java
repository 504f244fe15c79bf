package io.loopx.samples.semanticpreference;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.loopx.api.ActionToken;
import io.loopx.api.ExtensionId;
import io.loopx.api.Permission;
import io.loopx.api.Revision;
import io.loopx.api.envelope.EnvelopeVerifier.Expectation;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.testkit.contract.EnvelopeBinding;
import java.nio.file.Path;
import java.util.Map;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Requests as the host binds them, and the environment the host gives the provider. */
final class Fixtures {
  static final ExtensionId ID = ExtensionId.of(SemanticPreferenceProvider.EXTENSION_ID);

  /** The revision of the checked-in manifest, as the host would pass it. */
  static final Revision REVISION =
      LoadedManifest.load(Path.of("extension.toml").toAbsolutePath()).manifest().revision();

  /**
   * What {@code loopx semantic-preference recall} binds: the recall action, the recall scope and
   * the read permission.
   */
  static final EnvelopeBinding BINDING =
      EnvelopeBinding.of(
          SemanticPreferenceProvider.ACTION,
          SemanticPreferenceProvider.scope(),
          Permission.of("semantic_preference.read"));

  /** The provider's environment as set by the host for the active revision. */
  static final Map<String, String> ENV =
      Map.of(Expectation.ID_VARIABLE, ID.value(), Expectation.REVISION_VARIABLE, REVISION.value());

  private Fixtures() {}

  /** A bare request {@code {"schema_version":..., "query": query}}. */
  static ObjectNode bare(String query) {
    ObjectNode request = JsonNodeFactory.instance.objectNode();
    request.put("schema_version", SemanticPreferenceProvider.REQUEST_SCHEMA_VERSION);
    request.put("query", query);
    return request;
  }

  /** A bare request with a limit. */
  static ObjectNode bare(String query, int limit) {
    return bare(query).put("limit", limit);
  }

  /** Parses a bare request from JSON text. */
  static ObjectNode parse(String json) {
    return StrictJson.parseObject(json.getBytes(UTF_8));
  }

  /** Binds {@code bare} exactly as {@code loopx semantic-preference recall} does. */
  static ObjectNode bound(ObjectNode bare) {
    return BINDING.bind(ID, REVISION, bare);
  }

  /** Binds {@code bare} with another action or scope. */
  static ObjectNode bound(ObjectNode bare, ActionToken action, ObjectNode scope) {
    return EnvelopeBinding.of(action, scope, BINDING.permission()).bind(ID, REVISION, bare);
  }
}
