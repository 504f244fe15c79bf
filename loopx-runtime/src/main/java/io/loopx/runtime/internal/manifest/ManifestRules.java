package io.loopx.runtime.internal.manifest;

import static io.loopx.api.internal.ManifestValues.shown;

import io.loopx.api.ApiRange;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.internal.ManifestValues;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.Implementation;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.PresentationSurface;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.WorkerSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one validator of the manifest contract (docs/contract/manifest.md), shared by the TOML path
 * and the snapshot path: it reads a neutral JSON tree (TOML converted by {@link TomlDocument}, or a
 * normalised snapshot) with a {@link TreeReader} and applies every rule in the documented order;
 * the first failure wins. Where the two sources differ is the {@link Dialect}'s business.
 *
 * <p>Rule order: schema_version, id, version, requires_loopx_api (grammar, then compatibility),
 * permissions, runtime, presentation_surfaces, provides, implements ({@link EntryRules}), "declares
 * something"; for a snapshot, then {@link SnapshotCheck}. Inside a table: unknown keys first (where
 * they are rejected), then the fields in the order of the contract.
 */
final class ManifestRules {
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
          "java_class_path",
          "args",
          "doctor_args",
          "required_permissions",
          "timeout_seconds",
          "memory_mb",
          "worker");
  private static final List<String> WORKER_KEYS =
      List.of("args", "max_in_flight", "max_processes", "idle_seconds", "max_requests");
  private static final List<String> RUNTIME_SNAPSHOT_KEYS =
      List.of("protocol", "args", "doctor_args", "required_permissions", "timeout_seconds");

  private ManifestRules() {}

  /** Validates a TOML document converted to a tree. */
  static ExtensionManifest fromToml(ObjectNode root, String source) {
    return read(TreeReader.root(root, source, Dialect.TOML), source);
  }

  /** Validates a normalised snapshot, which must also normalise to itself. */
  static ExtensionManifest fromSnapshot(JsonNode snapshot, String source) {
    ExtensionManifest manifest = read(TreeReader.root(snapshot, source, Dialect.SNAPSHOT), source);
    return SnapshotCheck.requireNormalised(snapshot, manifest, source);
  }

  private static ExtensionManifest read(TreeReader root, String source) {
    Dialect dialect = root.dialect();
    root.checkKeys(dialect.closedKeys(TOP_LEVEL_KEYS), dialect.requiredKeys(TOP_LEVEL_KEYS));
    String schema = root.requiredString("schema_version");
    if (!schema.equals(ExtensionManifest.SCHEMA_VERSION)) {
      throw root.failAt(
          "schema_version",
          "must be `" + ExtensionManifest.SCHEMA_VERSION + "`, got `" + shown(schema) + "`");
    }
    ExtensionId id = root.required("id", ExtensionId::of);
    String version = root.requiredString("version");
    ApiRange range = root.required("requires_loopx_api", ApiRange::parse);
    dialect.requireCompatible(range, source);
    List<Permission> permissions = permissions(root, "permissions");
    Optional<RuntimeSpec> runtime = runtime(root, permissions);
    List<PresentationSurface> surfaces = EntryRules.surfaces(root, runtime);
    List<ProvidedCapability> provides = EntryRules.provides(root);
    List<Implementation> implementations = EntryRules.implementations(root, runtime);
    if (runtime.isEmpty() && provides.isEmpty() && implementations.isEmpty()) {
      throw root.fail(ManifestValues.DECLARES_NOTHING);
    }
    try {
      return new ExtensionManifest(
          id, version, range, permissions, runtime, provides, implementations, surfaces);
    } catch (InvalidValueException e) {
      throw root.fail(e);
    }
  }

  /** Reads an array of distinct permissions at {@code key}; absent means none. */
  private static List<Permission> permissions(TreeReader table, String key) {
    List<String> values = table.stringArray(key);
    List<Permission> permissions = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      Permission p = table.parseElement(key, i, values.get(i), Permission::of);
      if (permissions.contains(p)) {
        throw table.failAt(table.pathOf(key, i), "duplicate permission `" + shown(p.value()) + "`");
      }
      permissions.add(p);
    }
    return permissions;
  }

  private static Optional<RuntimeSpec> runtime(TreeReader root, List<Permission> declared) {
    Optional<TreeReader> table = root.optionalTable("runtime");
    if (table.isEmpty()) {
      return Optional.empty();
    }
    TreeReader rt = table.get();
    rt.checkKeys(RUNTIME_KEYS, rt.dialect().requiredKeys(RUNTIME_SNAPSHOT_KEYS));
    ProtocolId protocol = rt.required("protocol", ProtocolId::of);
    Optional<String> entrypoint = rt.optionalLaunchString("entrypoint");
    Optional<String> javaMain = rt.optionalString("java_main");
    if (entrypoint.isPresent() && javaMain.isPresent()) {
      throw rt.fail("declares both entrypoint and java_main; exactly one is allowed");
    }
    LaunchTarget target;
    if (entrypoint.isPresent()) {
      target = rt.parseKey("entrypoint", entrypoint.get(), LaunchTarget.Executable::new);
    } else if (javaMain.isPresent()) {
      target = rt.parseKey("java_main", javaMain.get(), LaunchTarget.JavaMain::new);
    } else {
      throw rt.fail("needs exactly one of entrypoint or java_main");
    }
    if (rt.get("java_class_path") != null) {
      if (!(target instanceof LaunchTarget.JavaMain main)) {
        throw rt.failAt(rt.pathOf("java_class_path"), "is allowed only with java_main");
      }
      target = new LaunchTarget.JavaMain(main.className(), classPath(rt));
    }
    List<String> args = arguments(rt, "args");
    List<String> doctorArgs = arguments(rt, "doctor_args");
    List<Permission> required = permissions(rt, "required_permissions");
    rt.checkKey("required_permissions", ManifestValues.undeclaredPermissions(required, declared));
    int timeout =
        boundedInt(
            rt,
            "timeout_seconds",
            RuntimeSpec.MAX_TIMEOUT_SECONDS,
            RuntimeSpec.DEFAULT_TIMEOUT_SECONDS);
    OptionalInt memory =
        rt.get("memory_mb") == null
            ? OptionalInt.empty()
            : OptionalInt.of(
                boundedInt(
                    rt, "memory_mb", RuntimeSpec.MIN_MEMORY_MB, RuntimeSpec.MAX_MEMORY_MB, 0));
    Optional<WorkerSpec> worker = worker(rt);
    try {
      return Optional.of(
          new RuntimeSpec(protocol, target, args, doctorArgs, required, timeout, worker, memory));
    } catch (InvalidValueException e) {
      throw rt.fail(e);
    }
  }

  /**
   * Reads {@code java_class_path}: an array of 1..{@value
   * LaunchTarget.JavaMain#MAX_CLASS_PATH_ENTRIES} distinct manifest-text paths, each passing {@link
   * ManifestValues#classPathEntry}.
   */
  private static List<String> classPath(TreeReader rt) {
    String key = "java_class_path";
    List<String> values = rt.stringArray(key);
    int max = LaunchTarget.JavaMain.MAX_CLASS_PATH_ENTRIES;
    if (values.isEmpty() || values.size() > max) {
      throw rt.failAt(rt.pathOf(key), "must hold 1.." + max + " paths, got " + values.size());
    }
    for (int i = 0; i < values.size(); i++) {
      String value = values.get(i);
      rt.checkElement(key, i, ManifestValues.classPathEntry(value));
      if (values.subList(0, i).contains(value)) {
        throw rt.failAt(rt.pathOf(key, i), "duplicate path `" + shown(value) + "`");
      }
    }
    return values;
  }

  private static List<String> arguments(TreeReader rt, String key) {
    List<String> values = rt.launchArguments(key);
    for (int i = 0; i < values.size(); i++) {
      rt.checkElement(key, i, ManifestValues.noNul(values.get(i)));
    }
    return values;
  }

  /**
   * Reads the optional {@code [runtime.worker]} table: unknown keys, then {@code args} (at most
   * {@value WorkerSpec#MAX_ARGS}), {@code max_in_flight}, {@code max_processes}, {@code
   * idle_seconds}, {@code max_requests}; absent keys take their defaults.
   */
  private static Optional<WorkerSpec> worker(TreeReader rt) {
    Optional<TreeReader> table = rt.optionalTable("worker");
    if (table.isEmpty()) {
      return Optional.empty();
    }
    TreeReader w = table.get();
    w.checkKeys(WORKER_KEYS, w.dialect().requiredKeys(WORKER_KEYS));
    List<String> args = w.get("args") == null ? WorkerSpec.DEFAULT_ARGS : arguments(w, "args");
    if (args.size() > WorkerSpec.MAX_ARGS) {
      throw w.failAt(
          w.pathOf("args"),
          "must hold at most " + WorkerSpec.MAX_ARGS + " arguments, got " + args.size());
    }
    int inFlight =
        boundedInt(w, "max_in_flight", WorkerSpec.MAX_IN_FLIGHT, WorkerSpec.DEFAULT_MAX_IN_FLIGHT);
    int processes =
        boundedInt(w, "max_processes", WorkerSpec.MAX_PROCESSES, WorkerSpec.DEFAULT_MAX_PROCESSES);
    int idle =
        boundedInt(w, "idle_seconds", WorkerSpec.MAX_IDLE_SECONDS, WorkerSpec.DEFAULT_IDLE_SECONDS);
    int requests =
        boundedInt(w, "max_requests", WorkerSpec.MAX_REQUESTS, WorkerSpec.DEFAULT_MAX_REQUESTS);
    try {
      return Optional.of(new WorkerSpec(args, inFlight, processes, idle, requests));
    } catch (InvalidValueException e) {
      throw w.fail(e);
    }
  }

  /** Reads a TOML integer 1..{@code max} at {@code key}; absent is {@code fallback}. */
  private static int boundedInt(TreeReader table, String key, int max, int fallback) {
    return boundedInt(table, key, 1, max, fallback);
  }

  /** Reads a TOML integer {@code min..max} at {@code key}; absent is {@code fallback}. */
  private static int boundedInt(TreeReader table, String key, int min, int max, int fallback) {
    JsonNode node = table.get(key);
    if (node == null) {
      return fallback;
    }
    String path = table.pathOf(key);
    String rule = "must be an integer " + min + ".." + max;
    if (!node.isIntegralNumber()) {
      throw table.failAt(path, rule + ", got " + table.dialect().describe(node));
    }
    if (!node.canConvertToInt() || node.intValue() < min || node.intValue() > max) {
      throw table.failAt(path, rule + ", got " + node.bigIntegerValue());
    }
    return node.intValue();
  }
}
