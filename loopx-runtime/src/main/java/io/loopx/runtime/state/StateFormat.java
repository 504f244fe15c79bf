package io.loopx.runtime.state;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Revision;
import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.runtime.internal.manifest.ManifestLoader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The activation state's JSON format ({@code loopx_extension_state_v0}, docs/contract/state.md):
 * the whole document of a state file, and one entry on its own for stores that keep each entry
 * apart (the PostgreSQL store keeps one row per entry). Decoding applies every check of the file
 * store: strict JSON, exactly the known fields, every manifest valid and every revision the hash of
 * its manifest; a failure is a {@link LoopxException} of kind {@code STATE_UNREADABLE}.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class StateFormat {
  private static final ManifestLoader LOADER = new ManifestLoader();
  private static final JsonMapper MAPPER =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
  private static final JsonMapper COMPACT = JsonMapper.builder().build();
  private static final Set<String> TOP_KEYS = Set.of("schema_version", "extensions");
  private static final Set<String> ENTRY_KEYS =
      Set.of(
          "id",
          "enabled",
          "active_revision",
          "rollback_revision",
          "doctor_verified_revision",
          "doctor_verified_identities",
          "revisions");
  private static final Set<String> REVISION_KEYS =
      Set.of("revision", "version", "manifest", "entrypoint_path");
  private static final String PROVEN = "proven_identities";

  private StateFormat() {}

  /**
   * Decodes a whole state document.
   *
   * @throws LoopxException {@code STATE_UNREADABLE} when the bytes are not a valid state document
   */
  public static ActivationState decode(byte[] bytes) {
    JsonNode root;
    try {
      root = StrictJson.parse(bytes);
    } catch (InvalidJsonException e) {
      throw new LoopxException(
          ErrorKind.STATE_UNREADABLE,
          "extension runtime state is unreadable: " + e.getMessage(),
          e);
    }
    if (!root.isObject()
        || !keys(root).equals(TOP_KEYS)
        || !root.get("schema_version").isString()
        || !ActivationState.SCHEMA_VERSION.equals(root.get("schema_version").asString())
        || !root.get("extensions").isObject()) {
      throw new LoopxException(
          ErrorKind.STATE_UNREADABLE,
          "extension runtime state must use " + ActivationState.SCHEMA_VERSION);
    }
    TreeMap<ExtensionId, ExtensionRecord> records = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : root.get("extensions").properties()) {
      ExtensionRecord record = decodeEntry(e.getKey(), e.getValue());
      records.put(record.id(), record);
    }
    return new ActivationState(records);
  }

  private static ExtensionRecord decodeEntry(String key, JsonNode entry) {
    try {
      require(entry.isObject() && keys(entry).equals(ENTRY_KEYS), "fields do not match the schema");
      ExtensionId id = ExtensionId.of(text(entry, "id"));
      require(id.value().equals(key), "is stored under key `" + key + "`");
      require(entry.get("enabled").isBoolean(), "enabled must be a boolean");
      List<String> identities = new ArrayList<>();
      JsonNode ids = entry.get("doctor_verified_identities");
      require(ids.isArray(), "doctor_verified_identities must be an array");
      for (JsonNode i : ids) {
        require(i.isString(), "doctor_verified_identities must hold strings");
        identities.add(i.asString());
      }
      JsonNode revs = entry.get("revisions");
      require(revs.isArray(), "revisions must be an array");
      List<RevisionSnapshot> snapshots = new ArrayList<>();
      for (JsonNode r : revs) {
        snapshots.add(decodeRevision(key, r));
      }
      return new ExtensionRecord(
          id,
          entry.get("enabled").booleanValue(),
          Revision.of(text(entry, "active_revision")),
          optionalText(entry, "rollback_revision").map(Revision::of),
          optionalText(entry, "doctor_verified_revision").map(Revision::of),
          identities,
          snapshots);
    } catch (LoopxException e) {
      if (e.kind() == ErrorKind.STATE_UNREADABLE) {
        throw e;
      }
      throw invalidEntry(key, e.getMessage(), e);
    }
  }

  private static RevisionSnapshot decodeRevision(String key, JsonNode r) {
    require(r.isObject(), "revision fields do not match the schema");
    // proven_identities was added within loopx_extension_state_v0: absent reads as empty.
    Set<String> keys = keys(r);
    keys.remove(PROVEN);
    require(keys.equals(REVISION_KEYS), "revision fields do not match the schema");
    ExtensionManifest manifest =
        LOADER.fromNormalizedJson(r.get("manifest"), "state entry `" + key + "`");
    require(
        manifest.version().equals(text(r, "version")), "revision version differs from manifest");
    Revision revision = Revision.of(text(r, "revision"));
    require(
        manifest.revision().equals(revision),
        "revision " + revision + " is not the hash of its manifest");
    List<String> proven = new ArrayList<>();
    JsonNode provenNode = r.get(PROVEN);
    if (provenNode != null) {
      require(provenNode.isArray(), PROVEN + " must be an array");
      for (JsonNode i : provenNode) {
        require(i.isString(), PROVEN + " must hold strings");
        proven.add(i.asString());
      }
    }
    return new RevisionSnapshot(revision, manifest, optionalText(r, "entrypoint_path"), proven);
  }

  /** Encodes {@code state} as a state file holds it: indented JSON (UTF-8) and a final newline. */
  public static byte[] encode(ActivationState state) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode root = f.objectNode();
    root.put("schema_version", ActivationState.SCHEMA_VERSION);
    ObjectNode extensions = root.putObject("extensions");
    for (ExtensionRecord rec : state.extensions().values()) {
      extensions.set(rec.id().value(), entryNode(rec));
    }
    byte[] json = MAPPER.writeValueAsBytes(root);
    byte[] out = new byte[json.length + 1];
    System.arraycopy(json, 0, out, 0, json.length);
    out[json.length] = '\n';
    return out;
  }

  /**
   * Decodes one entry stored on its own (as JSON bytes) under {@code key}, with the same checks as
   * an entry of a state file; the entry's id must be {@code key}.
   *
   * @throws LoopxException {@code STATE_UNREADABLE} naming {@code key}
   */
  public static ExtensionRecord decodeEntry(String key, byte[] bytes) {
    JsonNode node;
    try {
      node = StrictJson.parse(bytes);
    } catch (InvalidJsonException e) {
      throw invalidEntry(key, e.getMessage(), e);
    }
    return decodeEntry(key, node);
  }

  /**
   * Encodes one entry as compact JSON bytes (UTF-8), the form {@link #decodeEntry} reads; its
   * fields are those of the entry in a state file.
   */
  public static byte[] encodeEntry(ExtensionRecord rec) {
    return COMPACT.writeValueAsBytes(entryNode(rec));
  }

  private static ObjectNode entryNode(ExtensionRecord rec) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode e = f.objectNode();
    e.put("id", rec.id().value());
    e.put("enabled", rec.enabled());
    e.put("active_revision", rec.activeRevision().value());
    putOptional(e, "rollback_revision", rec.rollbackRevision().map(Revision::value));
    putOptional(e, "doctor_verified_revision", rec.doctorVerifiedRevision().map(Revision::value));
    ArrayNode ids = e.putArray("doctor_verified_identities");
    rec.doctorVerifiedIdentities().forEach(ids::add);
    ArrayNode revs = e.putArray("revisions");
    for (RevisionSnapshot s : rec.revisions()) {
      ObjectNode r = revs.addObject();
      r.put("revision", s.revision().value());
      r.put("version", s.version());
      r.set("manifest", s.manifest().toNormalizedJson());
      putOptional(r, "entrypoint_path", s.entrypointPath());
      ArrayNode proven = r.putArray(PROVEN);
      s.provenIdentities().forEach(proven::add);
    }
    return e;
  }

  private static void putOptional(ObjectNode node, String key, Optional<String> value) {
    if (value.isPresent()) {
      node.put(key, value.get());
    } else {
      node.putNull(key);
    }
  }

  private static Set<String> keys(JsonNode node) {
    Set<String> keys = new HashSet<>();
    node.propertyNames().forEach(keys::add);
    return keys;
  }

  private static String text(JsonNode node, String key) {
    JsonNode v = node.get(key);
    require(v != null && v.isString(), key + " must be a string");
    return v.asString();
  }

  private static Optional<String> optionalText(JsonNode node, String key) {
    JsonNode v = node.get(key);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    require(v.isString(), key + " must be a string or null");
    return Optional.of(v.asString());
  }

  private static void require(boolean condition, String rule) {
    if (!condition) {
      throw new LoopxException(ErrorKind.INVALID_VALUE, rule);
    }
  }

  private static LoopxException invalidEntry(String key, String detail, Throwable cause) {
    return new LoopxException(
        ErrorKind.STATE_UNREADABLE,
        "extension runtime state has an invalid entry `" + key + "`: " + detail,
        cause);
  }
}
