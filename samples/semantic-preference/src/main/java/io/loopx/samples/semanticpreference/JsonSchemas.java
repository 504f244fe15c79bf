package io.loopx.samples.semanticpreference;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Loads the JSON Schemas shipped in this jar ({@code /io/loopx/samples/<sample>/schemas/...},
 * namespaced so that a host jar can bundle several samples) and reports how a JSON value breaks
 * one. Draft 2020-12; no remote resources are ever fetched; locations are JSON paths ({@code
 * $.limit}); messages are English whatever the default locale.
 */
final class JsonSchemas {
  /** The request schema resource. */
  static final String REQUEST = "/io/loopx/samples/semanticpreference/schemas/request.schema.json";

  /** The response schema resource. */
  static final String RESPONSE =
      "/io/loopx/samples/semanticpreference/schemas/response.schema.json";

  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(
          SpecificationVersion.DRAFT_2020_12,
          builder ->
              builder
                  .schemaRegistryConfig(
                      SchemaRegistryConfig.builder()
                          .locale(Locale.ENGLISH)
                          .pathType(PathType.JSON_PATH)
                          .build())
                  .schemaLoader(loader -> loader.fetchRemoteResources(false)));

  private JsonSchemas() {}

  /**
   * Loads and compiles the schema resource {@code resource}.
   *
   * @throws IllegalStateException when the resource is missing from the jar
   */
  static Schema load(String resource) {
    try (InputStream in = JsonSchemas.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("schema resource " + resource + " is missing");
      }
      Schema schema = REGISTRY.getSchema(in);
      schema.initializeValidators();
      return schema;
    } catch (IOException e) {
      throw new UncheckedIOException("schema resource " + resource + " cannot be read", e);
    }
  }

  /**
   * Validates {@code value} against {@code schema}; returns one line per problem, each naming the
   * offending location (for example {@code $.query: integer found, string expected}), or nothing.
   */
  static List<String> problems(Schema schema, JsonNode value) {
    return schema.validate(value).stream().map(JsonSchemas::describe).toList();
  }

  private static String describe(Error error) {
    return error.getInstanceLocation() + ": " + error.getMessage();
  }
}
