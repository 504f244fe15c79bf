package io.loopx.runtime.internal.manifest;

import static io.loopx.api.internal.ManifestValues.shown;

import io.loopx.api.CapabilityId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.KindToken;
import io.loopx.api.ProtocolId;
import io.loopx.api.internal.ManifestValues;
import io.loopx.api.manifest.Implementation;
import io.loopx.api.manifest.PresentationSurface;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.SurfaceVisibility;
import io.loopx.api.manifest.Visibility;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The rules of the manifest's arrays of tables (docs/contract/manifest.md), in the order {@link
 * ManifestRules} applies them: {@code presentation_surfaces}, {@code provides}, {@code implements}.
 * The value rules they share with the manifest records are {@link ManifestValues}'.
 */
final class EntryRules {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> PROVIDES_SNAPSHOT_KEYS =
      List.of("id", "kind", "title", "status", "visibility", "user_value", "next_real_step");
  private static final List<String> IMPLEMENTS_KEYS = List.of("capability_id", "protocol");
  private static final List<String> SURFACE_KEYS =
      List.of(
          "id",
          "kind",
          "title",
          "view_schema",
          "view_validator",
          "visibility",
          "empty_state_title",
          "empty_state_detail");
  private static final List<String> SURFACE_SNAPSHOT_KEYS = SURFACE_KEYS.subList(0, 6);

  private EntryRules() {}

  static List<PresentationSurface> surfaces(TreeReader root, boolean runtimeDeclared) {
    List<TreeReader> tables = root.attempt(() -> root.tables("presentation_surfaces"));
    if (tables == null) {
      return List.of();
    }
    if (!tables.isEmpty() && !runtimeDeclared) {
      root.problems()
          .record(root.failAt("presentation_surfaces", "presentation surfaces need a [runtime]"));
      return List.of();
    }
    List<PresentationSurface> surfaces = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (TreeReader t : tables) {
      PresentationSurface surface = surface(t, ids);
      if (surface != null) {
        surfaces.add(surface);
      }
    }
    return surfaces;
  }

  /** Reads one presentation surface; {@code null} when it has a problem (each recorded). */
  private static @Nullable PresentationSurface surface(TreeReader t, Set<String> ids) {
    int before = t.problemCount();
    t.checkKeys(SURFACE_KEYS, t.dialect().requiredKeys(SURFACE_SNAPSHOT_KEYS));
    String id =
        t.attempt(
            () -> {
              String value = t.requiredString("id");
              t.checkKey("id", ManifestValues.surfaceId(value));
              if (!ids.add(value)) {
                throw t.failAt(t.pathOf("id"), "duplicate presentation surface id `" + value + "`");
              }
              return value;
            });
    KindToken kind = t.attempt(() -> t.required("kind", KindToken::of));
    String title =
        t.attempt(
            () ->
                plainText(t, "title", t.requiredString("title"), ManifestValues.MAX_SURFACE_TITLE));
    ProtocolId viewSchema = t.attempt(() -> t.required("view_schema", ProtocolId::of));
    String validator =
        t.attempt(
            () -> {
              String value = t.requiredString("view_validator");
              t.checkKey("view_validator", ManifestValues.viewValidator(value));
              return value;
            });
    SurfaceVisibility visibility = t.attempt(() -> surfaceVisibility(t));
    Optional<String> emptyTitle =
        t.attempt(
            () ->
                t.optionalString("empty_state_title")
                    .map(
                        s ->
                            plainText(
                                t, "empty_state_title", s, ManifestValues.MAX_EMPTY_STATE_TITLE)));
    Optional<String> emptyDetail =
        t.attempt(
            () ->
                t.optionalString("empty_state_detail")
                    .map(
                        s ->
                            plainText(
                                t,
                                "empty_state_detail",
                                s,
                                ManifestValues.MAX_EMPTY_STATE_DETAIL)));
    if (t.problemCount() > before
        || id == null
        || kind == null
        || title == null
        || viewSchema == null
        || validator == null
        || visibility == null
        || emptyTitle == null
        || emptyDetail == null) {
      return null;
    }
    try {
      return new PresentationSurface(
          id, kind, title, viewSchema, validator, visibility, emptyTitle, emptyDetail);
    } catch (InvalidValueException e) {
      t.problems().record(t.fail(e));
      return null;
    }
  }

  private static SurfaceVisibility surfaceVisibility(TreeReader t) {
    String visibilityText = t.requiredString("visibility");
    for (SurfaceVisibility v : SurfaceVisibility.values()) {
      if (v.wireName().equals(visibilityText)) {
        return v;
      }
    }
    throw t.failAt(
        t.pathOf("visibility"),
        "must be `public-safe` or `owner-only`, got `" + shown(visibilityText) + "`");
  }

  private static String plainText(TreeReader t, String key, String value, int max) {
    t.checkKey(key, ManifestValues.plainText(value, max));
    return value;
  }

  static List<ProvidedCapability> provides(TreeReader root) {
    List<TreeReader> tables = root.attempt(() -> root.tables("provides"));
    List<ProvidedCapability> provides = new ArrayList<>();
    Set<CapabilityId> ids = new HashSet<>();
    for (TreeReader t : tables == null ? List.<TreeReader>of() : tables) {
      ProvidedCapability capability = provided(t, ids);
      if (capability != null) {
        provides.add(capability);
      }
    }
    return provides;
  }

  /** Reads one provided capability; {@code null} when it has a problem (each recorded). */
  private static @Nullable ProvidedCapability provided(TreeReader t, Set<CapabilityId> ids) {
    int before = t.problemCount();
    t.checkKeys(null, t.dialect().requiredKeys(PROVIDES_SNAPSHOT_KEYS));
    CapabilityId id =
        t.attempt(
            () -> {
              CapabilityId value = t.required("id", CapabilityId::of);
              if (!ids.add(value)) {
                throw t.failAt(t.pathOf("id"), "duplicate capability id `" + value + "`");
              }
              return value;
            });
    KindToken kind = t.attempt(() -> t.required("kind", KindToken::of));
    String title = t.attempt(() -> t.requiredString("title"));
    String status = t.attempt(() -> t.requiredString("status"));
    String userValue = t.attempt(() -> t.requiredString("user_value"));
    String nextRealStep = t.attempt(() -> t.requiredString("next_real_step"));
    Visibility visibility = t.attempt(() -> visibility(t));
    Optional<String> anchor = t.attempt(() -> t.optionalString("real_world_anchor"));
    Optional<String> entryCommand = t.attempt(() -> t.optionalString("entry_command"));
    if (visibility == Visibility.PUBLIC && anchor != null && anchor.isEmpty()) {
      t.problems()
          .record(t.failAt(t.pathOf("real_world_anchor"), "is required for a public capability"));
    }
    if (visibility == Visibility.PUBLIC && entryCommand != null && entryCommand.isEmpty()) {
      t.problems()
          .record(t.failAt(t.pathOf("entry_command"), "is required for a public capability"));
    }
    Map<String, JsonNode> metadata = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : t.node().properties()) {
      if (!ProvidedCapability.FIELD_KEYS.contains(e.getKey())) {
        Optional<ManifestValues.Problem> problem =
            ManifestValues.metadataEntry(
                t.path(), e.getKey(), e.getValue(), t.dialect()::describe, false);
        if (problem.isPresent()) {
          t.problems().record(t.failAt(problem.get().path(), problem.get().detail()));
        } else {
          metadata.put(e.getKey(), normalised(e.getValue()));
        }
      }
    }
    if (t.problemCount() > before
        || id == null
        || kind == null
        || title == null
        || status == null
        || userValue == null
        || nextRealStep == null
        || visibility == null
        || anchor == null
        || entryCommand == null) {
      return null;
    }
    try {
      return new ProvidedCapability(
          id,
          kind,
          title,
          status,
          visibility,
          userValue,
          nextRealStep,
          anchor,
          entryCommand,
          metadata);
    } catch (InvalidValueException e) {
      t.problems().record(t.fail(e));
      return null;
    }
  }

  /** Reads the optional {@code visibility} of a provided capability; absent is public. */
  private static Visibility visibility(TreeReader t) {
    Optional<String> visibilityText = t.optionalString("visibility");
    if (visibilityText.isEmpty()) {
      return Visibility.PUBLIC;
    }
    return switch (visibilityText.get()) {
      case "public" -> Visibility.PUBLIC;
      case "internal" -> Visibility.INTERNAL;
      default ->
          throw t.failAt(
              t.pathOf("visibility"),
              "must be `public` or `internal`, got `" + shown(visibilityText.get()) + "`");
    };
  }

  /** Returns a fresh copy of a valid metadata value: strings trimmed, integers at their size. */
  private static JsonNode normalised(JsonNode value) {
    if (value.isString()) {
      return NODES.stringNode(value.stringValue().strip());
    }
    if (value.isBoolean()) {
      return NODES.booleanNode(value.booleanValue());
    }
    if (value.isIntegralNumber()) {
      long l = value.longValue();
      return l == (int) l ? NODES.numberNode((int) l) : NODES.numberNode(l);
    }
    if (value.isArray()) {
      ArrayNode array = NODES.arrayNode();
      value.forEach(element -> array.add(normalised(element)));
      return array;
    }
    ObjectNode object = NODES.objectNode();
    value.properties().forEach(e -> object.set(e.getKey(), normalised(e.getValue())));
    return object;
  }

  static List<Implementation> implementations(
      TreeReader root, boolean runtimeDeclared, @Nullable RuntimeSpec runtime) {
    List<TreeReader> tables = root.attempt(() -> root.tables("implements"));
    if (tables == null) {
      return List.of();
    }
    if (!tables.isEmpty() && !runtimeDeclared) {
      root.problems().record(root.failAt("implements", "[[implements]] needs a [runtime]"));
      return List.of();
    }
    List<Implementation> implementations = new ArrayList<>();
    Set<CapabilityId> ids = new HashSet<>();
    for (TreeReader t : tables) {
      int before = t.problemCount();
      t.checkKeys(IMPLEMENTS_KEYS, t.dialect().requiredKeys(IMPLEMENTS_KEYS));
      CapabilityId capability = t.attempt(() -> t.required("capability_id", CapabilityId::of));
      ProtocolId protocol = t.attempt(() -> t.required("protocol", ProtocolId::of));
      if (protocol != null && runtime != null) {
        t.run(
            () ->
                t.checkKey(
                    "protocol", ManifestValues.implementsProtocol(protocol, runtime.protocol())));
      }
      if (capability != null && !ids.add(capability)) {
        t.problems()
            .record(
                t.failAt(
                    t.pathOf("capability_id"),
                    "duplicate implementation of capability `" + capability + "`"));
      }
      if (t.problemCount() == before && capability != null && protocol != null) {
        implementations.add(new Implementation(capability, protocol));
      }
    }
    return implementations;
  }
}
