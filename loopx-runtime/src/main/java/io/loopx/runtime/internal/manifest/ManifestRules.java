package io.loopx.runtime.internal.manifest;

import io.loopx.api.ApiRange;
import io.loopx.api.CapabilityId;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.KindToken;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.Implementation;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.PresentationSurface;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.SurfaceVisibility;
import io.loopx.api.manifest.Visibility;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one validator of SPEC §2 (package-private), shared by the TOML path and the snapshot path. It
 * reads a neutral JSON tree (TOML converted by {@link TomlDocument}, or a normalised snapshot) and
 * applies every rule in the documented order; the first failure wins.
 *
 * <p>Rule order: schema_version, id, version, requires_loopx_api (grammar, then compatibility),
 * permissions, runtime, presentation_surfaces, provides, implements, "declares something". Inside a
 * table: unknown keys first (where they are rejected), then the fields in the order of the SPEC.
 *
 * <p>The two modes differ only where the SPEC says so: a TOML file may omit defaulted keys and
 * carry unknown top-level keys (dropped); a snapshot must have the exact key sets of the normalised
 * form, a {@code runtime} of {@code null} when absent, and must normalise to itself. A snapshot's
 * API range is checked for grammar only: whether it admits this runtime is a doctor status, not a
 * reason to refuse to read durable state.
 */
final class ManifestRules {

  /** Where the tree came from. */
  enum Mode {
    TOML,
    SNAPSHOT
  }

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final long MAX_SAFE_INTEGER = (1L << 53) - 1;
  private static final int MAX_SURFACE_ID = 48;
  private static final int MAX_SURFACE_TITLE = 80;
  private static final int MAX_EMPTY_STATE_TITLE = 120;
  private static final int MAX_EMPTY_STATE_DETAIL = 240;

  private static final List<String> TOP_LEVEL_KEYS =
      List.of(
          "schema_version",
          "id",
          "version",
          "requires_loopx_api",
          "permissions",
          "runtime",
          "provides",
          "implements",
          "presentation_surfaces");
  private static final List<String> RUNTIME_KEYS =
      List.of(
          "protocol",
          "entrypoint",
          "java_main",
          "args",
          "doctor_args",
          "required_permissions",
          "timeout_seconds");
  private static final List<String> RUNTIME_SNAPSHOT_KEYS =
      List.of("protocol", "args", "doctor_args", "required_permissions", "timeout_seconds");
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

  private static final Pattern LOWER_KEBAB = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
  private static final String JAVA_ID = "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*";
  private static final Pattern VIEW_VALIDATOR =
      Pattern.compile(JAVA_ID + "(\\." + JAVA_ID + ")+#" + JAVA_ID);
  private static final Pattern TAG = Pattern.compile("<[^>]*>");
  private static final Pattern DRIVE_PATH = Pattern.compile("[A-Za-z]:[\\\\/]");
  private static final List<String> URL_MARKERS = List.of("http://", "https://", "www.");

  private final String source;
  private final Mode mode;

  private ManifestRules(String source, Mode mode) {
    this.source = source;
    this.mode = mode;
  }

  /** Validates a TOML document converted to a tree. */
  static ExtensionManifest fromToml(ObjectNode root, String source) {
    return new ManifestRules(source, Mode.TOML).read(root);
  }

  /** Validates a normalised snapshot, which must also normalise to itself. */
  static ExtensionManifest fromSnapshot(JsonNode snapshot, String source) {
    ManifestRules rules = new ManifestRules(source, Mode.SNAPSHOT);
    ExtensionManifest manifest = rules.read(snapshot);
    Optional<String> difference = firstDifference(snapshot, manifest.toNormalizedJson(), "");
    if (difference.isPresent()) {
      String key = difference.get().isEmpty() ? ManifestException.FILE_KEY : difference.get();
      throw rules.fail(key, "is not in normalised form (normalising the snapshot changes it)");
    }
    return manifest;
  }

  // ---------------------------------------------------------------- rules, in documented order

  private ExtensionManifest read(JsonNode rootNode) {
    if (!rootNode.isObject()) {
      throw fail(
          ManifestException.FILE_KEY, "must be a " + tableWord() + ", got " + describe(rootNode));
    }
    ObjectNode root = (ObjectNode) rootNode;
    if (mode == Mode.SNAPSHOT) {
      checkKeys(root, "", TOP_LEVEL_KEYS, TOP_LEVEL_KEYS);
    }
    String schema = requiredString(root, "schema_version", "schema_version");
    if (!schema.equals(ExtensionManifest.SCHEMA_VERSION)) {
      throw fail(
          "schema_version",
          "must be `" + ExtensionManifest.SCHEMA_VERSION + "`, got `" + shown(schema) + "`");
    }
    ExtensionId id = parse("id", requiredString(root, "id", "id"), ExtensionId::of);
    String version = requiredString(root, "version", "version");
    ApiRange range =
        parse(
            "requires_loopx_api",
            requiredString(root, "requires_loopx_api", "requires_loopx_api"),
            ApiRange::parse);
    if (mode == Mode.TOML && !range.admitsCurrent()) {
      throw ManifestException.apiIncompatible(source, range);
    }
    List<Permission> permissions = permissions(root);
    Optional<RuntimeSpec> runtime = runtime(root, permissions);
    List<PresentationSurface> surfaces = surfaces(root, runtime);
    List<ProvidedCapability> provides = provides(root);
    List<Implementation> implementations = implementations(root, runtime);
    if (runtime.isEmpty() && provides.isEmpty() && implementations.isEmpty()) {
      throw fail(
          ManifestException.FILE_KEY,
          "declares nothing: a manifest needs at least one of [runtime], [[provides]] or"
              + " [[implements]]");
    }
    try {
      return new ExtensionManifest(
          id, version, range, permissions, runtime, provides, implementations, surfaces);
    } catch (InvalidValueException e) {
      throw fail(ManifestException.FILE_KEY, e.getMessage(), e);
    }
  }

  private List<Permission> permissions(ObjectNode root) {
    List<String> values = stringArray(root, "permissions", "permissions");
    List<Permission> permissions = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      String path = index("permissions", i);
      Permission p = parse(path, values.get(i), Permission::of);
      if (permissions.contains(p)) {
        throw fail(path, "duplicate permission `" + shown(p.value()) + "`");
      }
      permissions.add(p);
    }
    return permissions;
  }

  private Optional<RuntimeSpec> runtime(ObjectNode root, List<Permission> declared) {
    JsonNode node = root.get("runtime");
    if (node == null || (mode == Mode.SNAPSHOT && node.isNull())) {
      return Optional.empty();
    }
    ObjectNode rt = table(node, "runtime");
    checkKeys(rt, "runtime", RUNTIME_KEYS, snapshotOnly(RUNTIME_SNAPSHOT_KEYS));
    ProtocolId protocol =
        parse(
            "runtime.protocol", requiredString(rt, "protocol", "runtime.protocol"), ProtocolId::of);
    Optional<String> entrypoint = optionalString(rt, "entrypoint", "runtime.entrypoint");
    Optional<String> javaMain = optionalString(rt, "java_main", "runtime.java_main");
    if (entrypoint.isPresent() && javaMain.isPresent()) {
      throw fail("runtime", "declares both entrypoint and java_main; exactly one is allowed");
    }
    LaunchTarget target;
    if (entrypoint.isPresent()) {
      target = parse("runtime.entrypoint", entrypoint.get(), LaunchTarget.Executable::new);
    } else if (javaMain.isPresent()) {
      target = parse("runtime.java_main", javaMain.get(), LaunchTarget.JavaMain::new);
    } else {
      throw fail("runtime", "needs exactly one of entrypoint or java_main");
    }
    List<String> args = arguments(rt, "args", "runtime.args");
    List<String> doctorArgs = arguments(rt, "doctor_args", "runtime.doctor_args");
    List<String> requiredValues =
        stringArray(rt, "required_permissions", "runtime.required_permissions");
    List<Permission> required = new ArrayList<>();
    for (int i = 0; i < requiredValues.size(); i++) {
      String path = index("runtime.required_permissions", i);
      Permission p = parse(path, requiredValues.get(i), Permission::of);
      if (required.contains(p)) {
        throw fail(path, "duplicate permission `" + shown(p.value()) + "`");
      }
      required.add(p);
    }
    List<Permission> undeclared = required.stream().filter(p -> !declared.contains(p)).toList();
    if (!undeclared.isEmpty()) {
      throw fail(
          "runtime.required_permissions", "runtime requires undeclared permissions " + undeclared);
    }
    int timeout = timeoutSeconds(rt);
    try {
      return Optional.of(new RuntimeSpec(protocol, target, args, doctorArgs, required, timeout));
    } catch (InvalidValueException e) {
      throw fail("runtime", e.getMessage(), e);
    }
  }

  private int timeoutSeconds(ObjectNode rt) {
    JsonNode node = rt.get("timeout_seconds");
    if (node == null) {
      return RuntimeSpec.DEFAULT_TIMEOUT_SECONDS;
    }
    String path = "runtime.timeout_seconds";
    String rule = "must be an integer 1.." + RuntimeSpec.MAX_TIMEOUT_SECONDS;
    if (!node.isIntegralNumber()) {
      throw fail(path, rule + ", got " + describe(node));
    }
    if (!node.canConvertToInt()
        || node.intValue() < 1
        || node.intValue() > RuntimeSpec.MAX_TIMEOUT_SECONDS) {
      throw fail(path, rule + ", got " + node.bigIntegerValue());
    }
    return node.intValue();
  }

  private List<PresentationSurface> surfaces(ObjectNode root, Optional<RuntimeSpec> runtime) {
    List<ObjectNode> tables = tables(root, "presentation_surfaces");
    if (!tables.isEmpty() && runtime.isEmpty()) {
      throw fail("presentation_surfaces", "presentation surfaces need a [runtime]");
    }
    List<PresentationSurface> surfaces = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < tables.size(); i++) {
      ObjectNode t = tables.get(i);
      String path = index("presentation_surfaces", i);
      checkKeys(t, path, SURFACE_KEYS, snapshotOnly(SURFACE_SNAPSHOT_KEYS));
      String idPath = child(path, "id");
      String id = requiredString(t, "id", idPath);
      if (id.length() > MAX_SURFACE_ID || !LOWER_KEBAB.matcher(id).matches()) {
        throw fail(
            idPath,
            "`" + shown(id) + "` must be 1.." + MAX_SURFACE_ID + " characters of lower-kebab-case");
      }
      if (!ids.add(id)) {
        throw fail(idPath, "duplicate presentation surface id `" + id + "`");
      }
      KindToken kind =
          parse(child(path, "kind"), requiredString(t, "kind", child(path, "kind")), KindToken::of);
      String titlePath = child(path, "title");
      String title = plainText(titlePath, requiredString(t, "title", titlePath), MAX_SURFACE_TITLE);
      String schemaPath = child(path, "view_schema");
      ProtocolId viewSchema =
          parse(schemaPath, requiredString(t, "view_schema", schemaPath), ProtocolId::of);
      String validatorPath = child(path, "view_validator");
      String validator = requiredString(t, "view_validator", validatorPath);
      if (!VIEW_VALIDATOR.matcher(validator).matches()) {
        throw fail(
            validatorPath,
            "`" + shown(validator) + "` must have the form fully.qualified.Class#method");
      }
      String visibilityPath = child(path, "visibility");
      String visibilityText = requiredString(t, "visibility", visibilityPath);
      SurfaceVisibility visibility = null;
      for (SurfaceVisibility v : SurfaceVisibility.values()) {
        if (v.wireName().equals(visibilityText)) {
          visibility = v;
        }
      }
      if (visibility == null) {
        throw fail(
            visibilityPath,
            "must be `public-safe` or `owner-only`, got `" + shown(visibilityText) + "`");
      }
      String emptyTitlePath = child(path, "empty_state_title");
      Optional<String> emptyTitle =
          optionalString(t, "empty_state_title", emptyTitlePath)
              .map(s -> plainText(emptyTitlePath, s, MAX_EMPTY_STATE_TITLE));
      String emptyDetailPath = child(path, "empty_state_detail");
      Optional<String> emptyDetail =
          optionalString(t, "empty_state_detail", emptyDetailPath)
              .map(s -> plainText(emptyDetailPath, s, MAX_EMPTY_STATE_DETAIL));
      try {
        surfaces.add(
            new PresentationSurface(
                id, kind, title, viewSchema, validator, visibility, emptyTitle, emptyDetail));
      } catch (InvalidValueException e) {
        throw fail(path, e.getMessage(), e);
      }
    }
    return surfaces;
  }

  private List<ProvidedCapability> provides(ObjectNode root) {
    List<ObjectNode> tables = tables(root, "provides");
    List<ProvidedCapability> provides = new ArrayList<>();
    Set<CapabilityId> ids = new HashSet<>();
    for (int i = 0; i < tables.size(); i++) {
      ObjectNode t = tables.get(i);
      String path = index("provides", i);
      if (mode == Mode.SNAPSHOT) {
        checkKeys(t, path, null, PROVIDES_SNAPSHOT_KEYS);
      }
      String idPath = child(path, "id");
      CapabilityId id = parse(idPath, requiredString(t, "id", idPath), CapabilityId::of);
      if (!ids.add(id)) {
        throw fail(idPath, "duplicate capability id `" + id + "`");
      }
      KindToken kind =
          parse(child(path, "kind"), requiredString(t, "kind", child(path, "kind")), KindToken::of);
      String title = requiredString(t, "title", child(path, "title"));
      String status = requiredString(t, "status", child(path, "status"));
      String userValue = requiredString(t, "user_value", child(path, "user_value"));
      String nextRealStep = requiredString(t, "next_real_step", child(path, "next_real_step"));
      String visibilityPath = child(path, "visibility");
      Visibility visibility = Visibility.PUBLIC;
      Optional<String> visibilityText = optionalString(t, "visibility", visibilityPath);
      if (visibilityText.isPresent()) {
        visibility =
            switch (visibilityText.get()) {
              case "public" -> Visibility.PUBLIC;
              case "internal" -> Visibility.INTERNAL;
              default ->
                  throw fail(
                      visibilityPath,
                      "must be `public` or `internal`, got `" + shown(visibilityText.get()) + "`");
            };
      }
      Optional<String> anchor =
          optionalString(t, "real_world_anchor", child(path, "real_world_anchor"));
      Optional<String> entryCommand =
          optionalString(t, "entry_command", child(path, "entry_command"));
      if (visibility == Visibility.PUBLIC && anchor.isEmpty()) {
        throw fail(child(path, "real_world_anchor"), "is required for a public capability");
      }
      if (visibility == Visibility.PUBLIC && entryCommand.isEmpty()) {
        throw fail(child(path, "entry_command"), "is required for a public capability");
      }
      Map<String, JsonNode> metadata = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : t.properties()) {
        if (!ProvidedCapability.FIELD_KEYS.contains(e.getKey())) {
          String metaPath = child(path, e.getKey());
          checkUnicode(metaPath, e.getKey());
          metadata.put(e.getKey(), metadataValue(e.getValue(), metaPath));
        }
      }
      try {
        provides.add(
            new ProvidedCapability(
                id,
                kind,
                title,
                status,
                visibility,
                userValue,
                nextRealStep,
                anchor,
                entryCommand,
                metadata));
      } catch (InvalidValueException e) {
        throw fail(path, e.getMessage(), e);
      }
    }
    return provides;
  }

  private JsonNode metadataValue(JsonNode value, String path) {
    if (value.isString()) {
      return NODES.stringNode(text(value, path));
    }
    if (value.isBoolean()) {
      return NODES.booleanNode(value.booleanValue());
    }
    if (value.isIntegralNumber()) {
      if (!value.canConvertToLong()
          || value.longValue() > MAX_SAFE_INTEGER
          || value.longValue() < -MAX_SAFE_INTEGER) {
        throw fail(
            path,
            "integer "
                + value.bigIntegerValue()
                + " is outside the interoperable range ±(2^53 - 1)");
      }
      long l = value.longValue();
      return l == (int) l ? NODES.numberNode((int) l) : NODES.numberNode(l);
    }
    if (value.isArray()) {
      ArrayNode array = NODES.arrayNode();
      for (int i = 0; i < value.size(); i++) {
        array.add(metadataValue(value.get(i), index(path, i)));
      }
      return array;
    }
    if (value.isObject()) {
      ObjectNode object = NODES.objectNode();
      for (Map.Entry<String, JsonNode> e : value.properties()) {
        String childPath = child(path, e.getKey());
        checkUnicode(childPath, e.getKey());
        object.set(e.getKey(), metadataValue(e.getValue(), childPath));
      }
      return object;
    }
    throw fail(
        path,
        "extra [[provides]] keys must be strings, integers, booleans, or arrays or tables of"
            + " those; got "
            + describe(value));
  }

  private List<Implementation> implementations(ObjectNode root, Optional<RuntimeSpec> runtime) {
    List<ObjectNode> tables = tables(root, "implements");
    if (!tables.isEmpty() && runtime.isEmpty()) {
      throw fail("implements", "[[implements]] needs a [runtime]");
    }
    List<Implementation> implementations = new ArrayList<>();
    Set<CapabilityId> ids = new HashSet<>();
    for (int i = 0; i < tables.size(); i++) {
      ObjectNode t = tables.get(i);
      String path = index("implements", i);
      checkKeys(t, path, IMPLEMENTS_KEYS, snapshotOnly(IMPLEMENTS_KEYS));
      String capPath = child(path, "capability_id");
      CapabilityId capability =
          parse(capPath, requiredString(t, "capability_id", capPath), CapabilityId::of);
      String protocolPath = child(path, "protocol");
      ProtocolId protocol =
          parse(protocolPath, requiredString(t, "protocol", protocolPath), ProtocolId::of);
      ProtocolId runtimeProtocol = runtime.orElseThrow().protocol();
      if (!protocol.equals(runtimeProtocol)) {
        throw fail(
            protocolPath,
            "`" + protocol + "` must equal the runtime protocol `" + runtimeProtocol + "`");
      }
      if (!ids.add(capability)) {
        throw fail(capPath, "duplicate implementation of capability `" + capability + "`");
      }
      implementations.add(new Implementation(capability, protocol));
    }
    return implementations;
  }

  // ---------------------------------------------------------------- value readers

  private String plainText(String path, String value, int max) {
    int length = value.codePointCount(0, value.length());
    if (length > max) {
      throw fail(path, "must be at most " + max + " characters, got " + length);
    }
    if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
      throw fail(path, "must be a single line of plain text (no line breaks)");
    }
    String lower = value.toLowerCase(Locale.ROOT);
    for (String marker : URL_MARKERS) {
      if (lower.contains(marker)) {
        throw fail(path, "must be plain text without URLs (found `" + marker + "`)");
      }
    }
    if (TAG.matcher(value).find()) {
      throw fail(path, "must be plain text without markup tags (`<…>`)");
    }
    for (String token : value.split("\\s+", -1)) {
      String t = stripLeading(token);
      if (t.startsWith("/") || t.startsWith("~/") || DRIVE_PATH.matcher(t).lookingAt()) {
        throw fail(path, "must be plain text without file paths (found `" + shown(token) + "`)");
      }
    }
    return value;
  }

  private static String stripLeading(String token) {
    int i = 0;
    while (i < token.length() && "\"'([{".indexOf(token.charAt(i)) >= 0) {
      i++;
    }
    return token.substring(i);
  }

  private List<String> arguments(ObjectNode table, String key, String path) {
    List<String> values = stringArray(table, key, path);
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i).indexOf('\0') >= 0) {
        throw fail(index(path, i), "must not contain NUL");
      }
    }
    return values;
  }

  /** Reads an optional array of non-empty strings (trimmed); absent means empty. */
  private List<String> stringArray(ObjectNode table, String key, String path) {
    JsonNode node = table.get(key);
    if (node == null) {
      return List.of();
    }
    if (!node.isArray()) {
      throw fail(path, "must be an array of strings, got " + describe(node));
    }
    List<String> values = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      String element = text(node.get(i), index(path, i));
      if (element.isEmpty()) {
        throw fail(index(path, i), "must not be empty");
      }
      values.add(element);
    }
    return values;
  }

  private List<ObjectNode> tables(ObjectNode root, String key) {
    JsonNode node = root.get(key);
    if (node == null) {
      return List.of();
    }
    if (!node.isArray()) {
      throw fail(key, "must be an array of " + tableWord() + "s, got " + describe(node));
    }
    List<ObjectNode> tables = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      tables.add(table(node.get(i), index(key, i)));
    }
    return tables;
  }

  private ObjectNode table(JsonNode node, String path) {
    if (!node.isObject()) {
      throw fail(path, "must be a " + tableWord() + ", got " + describe(node));
    }
    return (ObjectNode) node;
  }

  private String requiredString(ObjectNode table, String key, String path) {
    JsonNode node = table.get(key);
    if (node == null) {
      throw fail(path, "is required");
    }
    String value = text(node, path);
    if (value.isEmpty()) {
      throw fail(path, "must not be empty");
    }
    return value;
  }

  /** Reads an optional string; absent, or empty after trimming, is empty. */
  private Optional<String> optionalString(ObjectNode table, String key, String path) {
    JsonNode node = table.get(key);
    if (node == null) {
      return Optional.empty();
    }
    String value = text(node, path);
    return value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  /** Returns the trimmed text of a string node; any other type is invalid. */
  private String text(JsonNode node, String path) {
    if (!node.isString()) {
      throw fail(path, "must be a string, got " + describe(node));
    }
    String value = node.stringValue();
    checkUnicode(path, value);
    return value.strip();
  }

  private void checkUnicode(String path, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw fail(
            path, "contains a lone surrogate U+" + Integer.toHexString(c).toUpperCase(Locale.ROOT));
      }
    }
  }

  private void checkKeys(
      ObjectNode table, String path, @Nullable List<String> allowed, List<String> required) {
    if (allowed != null) {
      for (String key : table.propertyNames()) {
        if (!allowed.contains(key)) {
          throw fail(child(path, key), "unknown key");
        }
      }
    }
    for (String key : required) {
      if (!table.has(key)) {
        throw fail(child(path, key), "is required");
      }
    }
  }

  private List<String> snapshotOnly(List<String> keys) {
    return mode == Mode.SNAPSHOT ? keys : List.of();
  }

  private <T> T parse(String path, String value, Function<String, T> factory) {
    try {
      return factory.apply(value);
    } catch (InvalidValueException e) {
      throw fail(path, e.getMessage(), e);
    }
  }

  private String tableWord() {
    return mode == Mode.TOML ? "table" : "object";
  }

  private String describe(JsonNode node) {
    if (node.isString()) {
      return "a string";
    }
    if (node.isBoolean()) {
      return "a boolean";
    }
    if (node.isIntegralNumber()) {
      return "an integer";
    }
    if (node.isNumber()) {
      return mode == Mode.TOML ? "a float" : "a non-integral number";
    }
    if (node.isArray()) {
      return "an array";
    }
    if (node.isObject()) {
      return "a " + tableWord();
    }
    if (node.isNull()) {
      return "null";
    }
    if (node.isPojo()) {
      return mode == Mode.TOML ? "a datetime" : "a non-JSON value";
    }
    return node.getNodeType().toString().toLowerCase(Locale.ROOT);
  }

  private ManifestException fail(String key, String detail) {
    return new ManifestException(source, key, detail);
  }

  private ManifestException fail(String key, String detail, Throwable cause) {
    return new ManifestException(source, key, detail, cause);
  }

  private static String child(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private static String index(String path, int i) {
    return path + "[" + i + "]";
  }

  /** Shortens a value for a message. */
  private static String shown(String value) {
    return value.length() <= 80 ? value : value.substring(0, 80) + "…";
  }

  /**
   * Returns the path of the first place where {@code actual} differs from {@code expected} as a
   * JSON value ({@code ""} for the root), or empty when they are equal. Integers compare by value.
   */
  static Optional<String> firstDifference(JsonNode actual, JsonNode expected, String path) {
    if (actual.isObject() && expected.isObject()) {
      Set<String> keys = new TreeSet<>(actual.propertyNames());
      keys.addAll(expected.propertyNames());
      for (String key : keys) {
        JsonNode a = actual.get(key);
        JsonNode e = expected.get(key);
        if (a == null || e == null) {
          return Optional.of(child(path, key));
        }
        Optional<String> d = firstDifference(a, e, child(path, key));
        if (d.isPresent()) {
          return d;
        }
      }
      return Optional.empty();
    }
    if (actual.isArray() && expected.isArray()) {
      if (actual.size() != expected.size()) {
        return Optional.of(path);
      }
      for (int i = 0; i < actual.size(); i++) {
        Optional<String> d = firstDifference(actual.get(i), expected.get(i), index(path, i));
        if (d.isPresent()) {
          return d;
        }
      }
      return Optional.empty();
    }
    if (actual.isIntegralNumber() && expected.isIntegralNumber()) {
      return actual.bigIntegerValue().equals(expected.bigIntegerValue())
          ? Optional.empty()
          : Optional.of(path);
    }
    return actual.equals(expected) ? Optional.empty() : Optional.of(path);
  }
}
