package io.loopx.api.manifest;

import io.loopx.api.CapabilityId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.KindToken;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;

/**
 * A {@code [[provides]]} entry: a capability contract this extension adds to the catalog.
 *
 * <p>{@code metadata} holds the extra descriptive keys of the entry (strings, integers, booleans,
 * and arrays or tables of those), in declaration order. The nodes are deep-copied on the way in and
 * on the way out, so an instance stays immutable.
 *
 * @param id the capability id
 * @param kind the capability kind
 * @param title the title
 * @param status the status text
 * @param visibility public (default) or internal
 * @param userValue what the user gets
 * @param nextRealStep the next real step
 * @param realWorldAnchor required for public capabilities
 * @param entryCommand required for public capabilities
 * @param metadata extra descriptive keys
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ProvidedCapability(
    CapabilityId id,
    KindToken kind,
    String title,
    String status,
    Visibility visibility,
    String userValue,
    String nextRealStep,
    Optional<String> realWorldAnchor,
    Optional<String> entryCommand,
    Map<String, JsonNode> metadata) {

  /** The keys that are modelled fields; metadata never uses them. */
  public static final Set<String> FIELD_KEYS =
      Set.of(
          "id",
          "kind",
          "title",
          "status",
          "visibility",
          "user_value",
          "next_real_step",
          "real_world_anchor",
          "entry_command");

  /**
   * Validates, and deep-copies the metadata: text fields are trimmed, non-empty Unicode without
   * control, separator or bidirectional control characters; metadata keys are such text too and
   * values are trimmed strings of it, booleans, integers within ±(2^53 - 1), or arrays or objects
   * of those, as the manifest loader requires.
   *
   * @throws InvalidValueException naming the field and the broken rule
   */
  public ProvidedCapability {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Checks.text("provides.title", title);
    Checks.text("provides.status", status);
    Objects.requireNonNull(visibility, "visibility");
    Checks.text("provides.user_value", userValue);
    Checks.text("provides.next_real_step", nextRealStep);
    realWorldAnchor.ifPresent(v -> Checks.text("provides.real_world_anchor", v));
    entryCommand.ifPresent(v -> Checks.text("provides.entry_command", v));
    if (visibility == Visibility.PUBLIC && (realWorldAnchor.isEmpty() || entryCommand.isEmpty())) {
      throw new InvalidValueException(
          "provides", id.value(), "a public capability needs real_world_anchor and entry_command");
    }
    metadata = copy(metadata);
    for (String key : metadata.keySet()) {
      if (FIELD_KEYS.contains(key)) {
        throw new InvalidValueException("provides metadata key", key, "is a modelled field");
      }
    }
    Checks.metadata(metadata);
  }

  /** Returns a deep copy of the extra descriptive keys, in declaration order. */
  @Override
  public Map<String, JsonNode> metadata() {
    return copy(metadata);
  }

  private static Map<String, JsonNode> copy(Map<String, JsonNode> source) {
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    source.forEach(
        (k, v) -> copy.put(Objects.requireNonNull(k), Objects.requireNonNull(v).deepCopy()));
    return Collections.unmodifiableMap(copy);
  }
}
