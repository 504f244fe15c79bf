package io.loopx.testkit;

import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * A fluent builder of {@code extension.toml} text (schema {@code loopx_extension_manifest_v0}).
 * Start from {@link Manifests}; each setter returns this builder.
 *
 * <p>The builder writes what it is told and validates nothing, so it also makes invalid manifests
 * for rejection tests ({@link #rawTopLevel} adds arbitrary lines); validation is the real {@link
 * LoadedManifest#parse}'s job, which {@link #parse(Path)} runs. A builder is mutable and not
 * thread-safe; {@link #copy()} forks it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class ManifestBuilder {
  private final String id;
  private String version = Manifests.DEFAULT_VERSION;
  private String requiresLoopxApi = Manifests.DEFAULT_API_RANGE;
  private List<String> permissions = new ArrayList<>();
  private boolean runtime;
  private Optional<String> protocol = Optional.empty();
  private Optional<String> entrypoint = Optional.empty();
  private Optional<String> javaMain = Optional.empty();
  private List<String> javaClassPath = new ArrayList<>();
  private List<String> args = new ArrayList<>();
  private List<String> doctorArgs = new ArrayList<>();
  private List<String> requiredPermissions = new ArrayList<>();
  private OptionalInt timeoutSeconds = OptionalInt.empty();
  private List<String> tables = new ArrayList<>();
  private List<String> implemented = new ArrayList<>();
  private List<String> rawLines = new ArrayList<>();

  ManifestBuilder(String id) {
    this.id = Objects.requireNonNull(id, "id");
  }

  /** Returns an independent copy of this builder. */
  public ManifestBuilder copy() {
    ManifestBuilder c = new ManifestBuilder(id);
    c.version = version;
    c.requiresLoopxApi = requiresLoopxApi;
    c.permissions = new ArrayList<>(permissions);
    c.runtime = runtime;
    c.protocol = protocol;
    c.entrypoint = entrypoint;
    c.javaMain = javaMain;
    c.javaClassPath = new ArrayList<>(javaClassPath);
    c.args = new ArrayList<>(args);
    c.doctorArgs = new ArrayList<>(doctorArgs);
    c.requiredPermissions = new ArrayList<>(requiredPermissions);
    c.timeoutSeconds = timeoutSeconds;
    c.tables = new ArrayList<>(tables);
    c.implemented = new ArrayList<>(implemented);
    c.rawLines = new ArrayList<>(rawLines);
    return c;
  }

  /** Returns the extension id. */
  public String id() {
    return id;
  }

  /** Returns the version text. */
  public String version() {
    return version;
  }

  /** Returns the {@code entrypoint}, when the runtime has one. */
  public Optional<String> entrypoint() {
    return runtime ? entrypoint : Optional.empty();
  }

  /** Returns the {@code java_main} class, when the runtime has one. */
  public Optional<String> javaMain() {
    return runtime ? javaMain : Optional.empty();
  }

  /** Returns the runtime protocol: the one set, or {@code <id with _>_v0}. */
  public String protocol() {
    return protocol.orElse(id.replace('-', '_').toLowerCase(Locale.ROOT) + "_v0");
  }

  /** Sets {@code version} (default {@value Manifests#DEFAULT_VERSION}). */
  public ManifestBuilder version(String version) {
    this.version = Objects.requireNonNull(version, "version");
    return this;
  }

  /** Sets {@code requires_loopx_api} (default {@value Manifests#DEFAULT_API_RANGE}). */
  public ManifestBuilder requiresLoopxApi(String range) {
    this.requiresLoopxApi = Objects.requireNonNull(range, "range");
    return this;
  }

  /** Sets {@code permissions} (default none). */
  public ManifestBuilder permissions(String... permissions) {
    this.permissions = new ArrayList<>(List.of(permissions));
    return this;
  }

  /** Adds a {@code [runtime]} with {@code entrypoint} (and no {@code java_main}). */
  public ManifestBuilder entrypoint(String entrypoint) {
    this.runtime = true;
    this.entrypoint = Optional.of(entrypoint);
    this.javaMain = Optional.empty();
    return this;
  }

  /** Adds a {@code [runtime]} with {@code java_main} (and no {@code entrypoint}). */
  public ManifestBuilder javaMain(String className) {
    this.runtime = true;
    this.javaMain = Optional.of(className);
    this.entrypoint = Optional.empty();
    return this;
  }

  /**
   * Sets the runtime {@code java_class_path} (default none: the host's code path); written only
   * with a {@code java_main}.
   */
  public ManifestBuilder javaClassPath(String... paths) {
    this.javaClassPath = new ArrayList<>(List.of(paths));
    return this;
  }

  /** Drops the {@code [runtime]} table. */
  public ManifestBuilder noRuntime() {
    this.runtime = false;
    return this;
  }

  /** Sets the runtime {@code protocol} (default {@code <id with _>_v0}). */
  public ManifestBuilder protocol(String protocol) {
    this.protocol = Optional.of(protocol);
    return this;
  }

  /** Sets the runtime {@code args} (default none). */
  public ManifestBuilder args(String... args) {
    this.args = new ArrayList<>(List.of(args));
    return this;
  }

  /** Sets the runtime {@code doctor_args}; none means {@code doctor_not_configured}. */
  public ManifestBuilder doctorArgs(String... doctorArgs) {
    this.doctorArgs = new ArrayList<>(List.of(doctorArgs));
    return this;
  }

  /** Sets the runtime {@code required_permissions} (default none). */
  public ManifestBuilder requiredPermissions(String... permissions) {
    this.requiredPermissions = new ArrayList<>(List.of(permissions));
    return this;
  }

  /** Sets the runtime {@code timeout_seconds} (default: absent, i.e. 30). */
  public ManifestBuilder timeoutSeconds(int seconds) {
    this.timeoutSeconds = OptionalInt.of(seconds);
    return this;
  }

  /**
   * Adds a public {@code [[provides]]} of {@code capabilityId} with kind {@code service} and
   * placeholder texts for every required key.
   */
  public ManifestBuilder provides(String capabilityId) {
    return provides(capabilityId, "service", true);
  }

  /** Adds an internal {@code [[provides]]} of {@code capabilityId} with kind {@code service}. */
  public ManifestBuilder providesInternal(String capabilityId) {
    return provides(capabilityId, "service", false);
  }

  /** Adds a {@code [[provides]]} of {@code capabilityId} with {@code kind} and visibility. */
  public ManifestBuilder provides(String capabilityId, String kind, boolean publicVisibility) {
    StringBuilder t = new StringBuilder("\n[[provides]]\n");
    line(t, "id", capabilityId);
    line(t, "kind", kind);
    line(t, "title", "Capability " + capabilityId);
    line(t, "status", "active");
    line(t, "visibility", publicVisibility ? "public" : "internal");
    line(t, "user_value", "test value of " + capabilityId);
    line(t, "next_real_step", "use " + capabilityId);
    if (publicVisibility) {
      line(t, "real_world_anchor", "a test anchor");
      line(t, "entry_command", "loopx " + capabilityId);
    }
    tables.add(t.toString());
    return this;
  }

  /**
   * Adds an {@code [[implements]]} of {@code capabilityId} with this manifest's runtime protocol
   * (as read when the text is rendered).
   */
  public ManifestBuilder implementsCapability(String capabilityId) {
    implemented.add(Objects.requireNonNull(capabilityId, "capabilityId"));
    return this;
  }

  /** Adds a public-safe {@code [[presentation_surfaces]]} with {@code id} and placeholder texts. */
  public ManifestBuilder presentationSurface(String surfaceId) {
    StringBuilder t = new StringBuilder("\n[[presentation_surfaces]]\n");
    line(t, "id", surfaceId);
    line(t, "kind", "dashboard");
    line(t, "title", "Surface " + surfaceId);
    line(t, "view_schema", "test_view_v0");
    line(t, "view_validator", "io.example.TestView#validate");
    line(t, "visibility", "public-safe");
    tables.add(t.toString());
    return this;
  }

  /**
   * Adds {@code line} verbatim among the top-level keys (for unknown keys or deliberately invalid
   * values; a later duplicate of a key makes the TOML invalid).
   */
  public ManifestBuilder rawTopLevel(String line) {
    rawLines.add(Objects.requireNonNull(line, "line"));
    return this;
  }

  /** Renders the manifest as TOML text. */
  public String toToml() {
    StringBuilder t = new StringBuilder();
    line(t, "schema_version", ExtensionManifest.SCHEMA_VERSION);
    line(t, "id", id);
    line(t, "version", version);
    line(t, "requires_loopx_api", requiresLoopxApi);
    t.append("permissions = ").append(array(permissions)).append('\n');
    rawLines.forEach(l -> t.append(l).append('\n'));
    if (runtime) {
      t.append("\n[runtime]\n");
      line(t, "protocol", protocol());
      entrypoint.ifPresent(e -> line(t, "entrypoint", e));
      javaMain.ifPresent(j -> line(t, "java_main", j));
      if (javaMain.isPresent() && !javaClassPath.isEmpty()) {
        t.append("java_class_path = ").append(array(javaClassPath)).append('\n');
      }
      t.append("args = ").append(array(args)).append('\n');
      t.append("doctor_args = ").append(array(doctorArgs)).append('\n');
      t.append("required_permissions = ").append(array(requiredPermissions)).append('\n');
      timeoutSeconds.ifPresent(s -> t.append("timeout_seconds = ").append(s).append('\n'));
    }
    tables.forEach(t::append);
    for (String capabilityId : implemented) {
      t.append("\n[[implements]]\n");
      line(t, "capability_id", capabilityId);
      line(t, "protocol", protocol());
    }
    return t.toString();
  }

  /** Renders the manifest as UTF-8 bytes. */
  public byte[] toBytes() {
    return toToml().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Parses the rendered text with the real {@link LoadedManifest#parse}, as if it were the file
   * {@code directory/extension.toml} (nothing is written or read).
   *
   * @throws io.loopx.api.manifest.ManifestException when the manifest breaks a rule
   */
  public LoadedManifest parse(Path directory) {
    return LoadedManifest.parse(
        toBytes(), directory.resolve(Manifests.FILE_NAME).toString(), directory);
  }

  @Override
  public String toString() {
    return "ManifestBuilder[" + id + " " + version + "]";
  }

  private static void line(StringBuilder t, String key, String value) {
    t.append(key).append(" = ").append(quote(value)).append('\n');
  }

  private static String array(List<String> values) {
    StringBuilder a = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      a.append(i == 0 ? "" : ", ").append(quote(values.get(i)));
    }
    return a.append(']').toString();
  }

  /** Returns {@code value} as a TOML basic string. */
  static String quote(String value) {
    StringBuilder q = new StringBuilder("\"");
    value
        .codePoints()
        .forEach(
            c -> {
              switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                case '\t' -> q.append("\\t");
                case '\r' -> q.append("\\r");
                default -> {
                  if (c < 0x20 || c == 0x7f) {
                    q.append(String.format(Locale.ROOT, "\\u%04X", c));
                  } else {
                    q.appendCodePoint(c);
                  }
                }
              }
            });
    return q.append('"').toString();
  }
}
