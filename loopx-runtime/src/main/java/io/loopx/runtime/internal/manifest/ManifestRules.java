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
import io.loopx.api.manifest.RuntimeAccess;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.api.manifest.WorkerSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one validator of the manifest contract (docs/contract/manifest.md), shared by the TOML path
 * and the snapshot path: it reads a neutral JSON tree (TOML converted by {@link TomlDocument}, or a
 * normalised snapshot) with a {@link TreeReader} and applies every rule in the documented order,
 * recording each failure and going on ({@link Problems}); the exception thrown is the first
 * failure, reporting all. Where the two sources differ is the {@link Dialect}'s business.
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
          "access",
          "worker");
  private static final List<String> WORKER_KEYS =
      List.of("args", "max_in_flight", "max_processes", "idle_seconds", "max_requests");
  private static final List<String> RUNTIME_SNAPSHOT_KEYS =
      List.of("protocol", "args", "doctor_args", "required_permissions", "timeout_seconds");

  private ManifestRules() {}

  /**
   * Validates a TOML document converted to a tree; {@code positions} maps key paths to their {@code
   * {line, column}} and is asked only when there are problems.
   */
  static ExtensionManifest fromToml(
      ObjectNode root, String source, Supplier<Map<String, int[]>> positions) {
    Problems problems = new Problems();
    ExtensionManifest manifest =
        read(TreeReader.root(root, source, Dialect.TOML, problems), source);
    problems.throwIfAny(positions);
    return Objects.requireNonNull(manifest, "manifest");
  }

  /** Validates a normalised snapshot, which must also normalise to itself. */
  static ExtensionManifest fromSnapshot(JsonNode snapshot, String source) {
    Problems problems = new Problems();
    ExtensionManifest manifest =
        read(TreeReader.root(snapshot, source, Dialect.SNAPSHOT, problems), source);
    problems.throwIfAny(Map::of);
    return SnapshotCheck.requireNormalised(
        snapshot, Objects.requireNonNull(manifest, "manifest"), source);
  }

  /**
   * Applies every rule, recording each problem and going on; returns the manifest, or {@code null}
   * when a problem was recorded.
   */
  private static @Nullable ExtensionManifest read(TreeReader root, String source) {
    Dialect dialect = root.dialect();
    root.checkKeys(dialect.closedKeys(TOP_LEVEL_KEYS), dialect.requiredKeys(TOP_LEVEL_KEYS));
    root.run(
        () -> {
          String schema = root.requiredString("schema_version");
          if (!schema.equals(ExtensionManifest.SCHEMA_VERSION)) {
            throw root.failAt(
                "schema_version",
                "must be `" + ExtensionManifest.SCHEMA_VERSION + "`, got `" + shown(schema) + "`");
          }
        });
    ExtensionId id = root.attempt(() -> root.required("id", ExtensionId::of));
    String version = root.attempt(() -> root.requiredString("version"));
    ApiRange range = root.attempt(() -> root.required("requires_loopx_api", ApiRange::parse));
    if (range != null) {
      root.run(() -> dialect.requireCompatible(range, source));
    }
    int beforePermissions = root.problemCount();
    List<Permission> permissions = permissions(root, "permissions");
    boolean permissionsRead = root.problemCount() == beforePermissions;
    JsonNode runtimeNode = root.get("runtime");
    boolean runtimeDeclared = runtimeNode != null && !dialect.isAbsent(runtimeNode);
    RuntimeSpec runtime = runtimeDeclared ? runtime(root, permissions, permissionsRead) : null;
    List<PresentationSurface> surfaces = EntryRules.surfaces(root, runtimeDeclared);
    List<ProvidedCapability> provides = EntryRules.provides(root);
    List<Implementation> implementations =
        EntryRules.implementations(root, runtimeDeclared, runtime);
    if (runtime != null
        && !runtime.access().isNone()
        && !root.declares("provides")
        && !root.declares("implements")) {
      // A standalone extension is run with no grant (docs/contract/run.md): it may declare none.
      root.problems()
          .record(
              root.failAt(TreeReader.child("runtime", "access"), ManifestValues.STANDALONE_ACCESS));
    }
    if (!runtimeDeclared && !root.declares("provides") && !root.declares("implements")) {
      root.problems().record(root.fail(ManifestValues.DECLARES_NOTHING));
    }
    if (root.problemCount() > 0
        || id == null
        || version == null
        || range == null
        || (runtimeDeclared && runtime == null)) {
      return null;
    }
    try {
      return new ExtensionManifest(
          id,
          version,
          range,
          permissions,
          Optional.ofNullable(runtime),
          provides,
          implementations,
          surfaces);
    } catch (InvalidValueException e) {
      root.problems().record(root.fail(e));
      return null;
    }
  }

  /**
   * Reads an array of distinct permissions at {@code key}; absent means none. Each bad element is a
   * problem of its own; the list holds the good ones.
   */
  private static List<Permission> permissions(TreeReader table, String key) {
    List<String> values = table.attempt(() -> table.stringArray(key));
    if (values == null) {
      return List.of();
    }
    List<Permission> permissions = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      int index = i;
      Permission p =
          table.attempt(() -> table.parseElement(key, index, values.get(index), Permission::of));
      if (p == null) {
        continue;
      }
      if (permissions.contains(p)) {
        table
            .problems()
            .record(
                table.failAt(
                    table.pathOf(key, i), "duplicate permission `" + shown(p.value()) + "`"));
        continue;
      }
      permissions.add(p);
    }
    return permissions;
  }

  /**
   * Reads the declared {@code [runtime]} table; returns {@code null} when it has a problem (each
   * recorded).
   */
  private static @Nullable RuntimeSpec runtime(
      TreeReader root, List<Permission> declared, boolean declaredRead) {
    int before = root.problemCount();
    TreeReader rt = root.attempt(() -> root.optionalTable("runtime").orElseThrow());
    if (rt == null) {
      return null;
    }
    rt.checkKeys(RUNTIME_KEYS, rt.dialect().requiredKeys(RUNTIME_SNAPSHOT_KEYS));
    ProtocolId protocol = rt.attempt(() -> rt.required("protocol", ProtocolId::of));
    Optional<String> entrypoint = rt.attempt(() -> rt.optionalLaunchString("entrypoint"));
    Optional<String> javaMain = rt.attempt(() -> rt.optionalString("java_main"));
    LaunchTarget target =
        entrypoint == null || javaMain == null
            ? null
            : rt.attempt(() -> target(rt, entrypoint, javaMain));
    if (rt.get("java_class_path") != null) {
      // Checked also when the launch target failed: the class path is a problem of its own.
      LaunchTarget main = target;
      List<String> classPath =
          rt.attempt(
              () -> {
                if (main != null && !(main instanceof LaunchTarget.JavaMain)) {
                  throw rt.failAt(rt.pathOf("java_class_path"), "is allowed only with java_main");
                }
                return classPath(rt);
              });
      target =
          main instanceof LaunchTarget.JavaMain javaMainTarget && classPath != null
              ? new LaunchTarget.JavaMain(javaMainTarget.className(), classPath)
              : null;
    }
    List<String> args = rt.attempt(() -> arguments(rt, "args"));
    List<String> doctorArgs = rt.attempt(() -> arguments(rt, "doctor_args"));
    int beforeRequired = rt.problemCount();
    List<Permission> required = permissions(rt, "required_permissions");
    if (declaredRead && rt.problemCount() == beforeRequired) {
      rt.run(
          () ->
              rt.checkKey(
                  "required_permissions",
                  ManifestValues.undeclaredPermissions(required, declared)));
    }
    Integer timeout =
        rt.attempt(
            () ->
                boundedInt(
                    rt,
                    "timeout_seconds",
                    RuntimeSpec.MAX_TIMEOUT_SECONDS,
                    RuntimeSpec.DEFAULT_TIMEOUT_SECONDS));
    OptionalInt memory =
        rt.attempt(
            () ->
                rt.get("memory_mb") == null
                    ? OptionalInt.empty()
                    : OptionalInt.of(
                        boundedInt(
                            rt,
                            "memory_mb",
                            RuntimeSpec.MIN_MEMORY_MB,
                            RuntimeSpec.MAX_MEMORY_MB,
                            0)));
    RuntimeAccess access =
        rt.get("access") == null ? RuntimeAccess.NONE : rt.attempt(() -> access(rt));
    Optional<WorkerSpec> worker = worker(rt);
    if (rt.problemCount() > before
        || protocol == null
        || target == null
        || args == null
        || doctorArgs == null
        || timeout == null
        || memory == null
        || access == null
        || worker == null) {
      return null;
    }
    try {
      return new RuntimeSpec(
          protocol, target, args, doctorArgs, required, timeout, worker, memory, access);
    } catch (InvalidValueException e) {
      rt.problems().record(rt.fail(e));
      return null;
    }
  }

  /** Reads the launch target: exactly one of {@code entrypoint} and {@code java_main}. */
  private static LaunchTarget target(
      TreeReader rt, Optional<String> entrypoint, Optional<String> javaMain) {
    if (entrypoint.isPresent() && javaMain.isPresent()) {
      throw rt.fail("declares both entrypoint and java_main; exactly one is allowed");
    }
    if (entrypoint.isPresent()) {
      return rt.parseKey("entrypoint", entrypoint.get(), LaunchTarget.Executable::new);
    } else if (javaMain.isPresent()) {
      return rt.parseKey("java_main", javaMain.get(), LaunchTarget.JavaMain::new);
    }
    throw rt.fail("needs exactly one of entrypoint or java_main");
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

  /**
   * Reads {@code runtime.access}: an array of at most {@value RuntimeAccess#MAX_ENTRIES} distinct
   * words ({@link ManifestValues#accessWord}), no root both read and written; empty means none.
   */
  private static RuntimeAccess access(TreeReader rt) {
    String key = "access";
    List<String> words = rt.stringArray(key);
    if (words.size() > RuntimeAccess.MAX_ENTRIES) {
      throw rt.failAt(
          rt.pathOf(key),
          "must hold at most " + RuntimeAccess.MAX_ENTRIES + " entries, got " + words.size());
    }
    for (int i = 0; i < words.size(); i++) {
      String word = words.get(i);
      rt.checkElement(key, i, ManifestValues.accessWord(word));
      if (words.subList(0, i).contains(word)) {
        throw rt.failAt(rt.pathOf(key, i), "duplicate access `" + shown(word) + "`");
      }
      String other = otherMode(word);
      if (other != null && words.subList(0, i).contains(other)) {
        String root = word.substring(word.indexOf(':') + 1);
        throw rt.failAt(rt.pathOf(key, i), ManifestValues.accessReadAndWrite(root));
      }
    }
    return rt.parseKey(key, "", unused -> RuntimeAccess.of(words));
  }

  /** The same root's word in the other mode ({@code read:x} for {@code write:x}), or null. */
  private static @Nullable String otherMode(String word) {
    if (word.startsWith(ManifestValues.ACCESS_READ)) {
      return ManifestValues.ACCESS_WRITE + word.substring(ManifestValues.ACCESS_READ.length());
    }
    if (word.startsWith(ManifestValues.ACCESS_WRITE)) {
      return ManifestValues.ACCESS_READ + word.substring(ManifestValues.ACCESS_WRITE.length());
    }
    return null;
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
  private static @Nullable Optional<WorkerSpec> worker(TreeReader rt) {
    int before = rt.problemCount();
    Optional<TreeReader> table = rt.attempt(() -> rt.optionalTable("worker"));
    if (table == null || table.isEmpty()) {
      return table == null ? null : Optional.empty();
    }
    TreeReader w = table.get();
    w.checkKeys(WORKER_KEYS, w.dialect().requiredKeys(WORKER_KEYS));
    List<String> args =
        w.attempt(
            () -> {
              List<String> values =
                  w.get("args") == null ? WorkerSpec.DEFAULT_ARGS : arguments(w, "args");
              if (values.size() > WorkerSpec.MAX_ARGS) {
                throw w.failAt(
                    w.pathOf("args"),
                    "must hold at most "
                        + WorkerSpec.MAX_ARGS
                        + " arguments, got "
                        + values.size());
              }
              return values;
            });
    Integer inFlight =
        w.attempt(
            () ->
                boundedInt(
                    w,
                    "max_in_flight",
                    WorkerSpec.MAX_IN_FLIGHT,
                    WorkerSpec.DEFAULT_MAX_IN_FLIGHT));
    Integer processes =
        w.attempt(
            () ->
                boundedInt(
                    w,
                    "max_processes",
                    WorkerSpec.MAX_PROCESSES,
                    WorkerSpec.DEFAULT_MAX_PROCESSES));
    Integer idle =
        w.attempt(
            () ->
                boundedInt(
                    w,
                    "idle_seconds",
                    WorkerSpec.MAX_IDLE_SECONDS,
                    WorkerSpec.DEFAULT_IDLE_SECONDS));
    Integer requests =
        w.attempt(
            () ->
                boundedInt(
                    w, "max_requests", WorkerSpec.MAX_REQUESTS, WorkerSpec.DEFAULT_MAX_REQUESTS));
    if (w.problemCount() > before
        || args == null
        || inFlight == null
        || processes == null
        || idle == null
        || requests == null) {
      return null;
    }
    try {
      return Optional.of(new WorkerSpec(args, inFlight, processes, idle, requests));
    } catch (InvalidValueException e) {
      w.problems().record(w.fail(e));
      return null;
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
