package io.loopx.scaffold;

import io.loopx.api.ExtensionId;
import io.loopx.api.ProtocolId;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The files of a standalone starter package, rendered from the {@code *.tmpl} resources next to
 * this class (package-private). Placeholders are {@code {{NAME}}}; every value substituted is
 * derived from a valid extension id and a digits-and-dots version, so no escaping is needed.
 */
final class Starter {
  /** The Java package prefix of the generated provider: a placeholder authors rename. */
  static final String JAVA_PACKAGE_PREFIX = "com.example.";

  /** Java keywords and literals (and restricted identifiers) that cannot be a package name. */
  private static final Set<String> RESERVED =
      Set.of(
          "abstract",
          "assert",
          "boolean",
          "break",
          "byte",
          "case",
          "catch",
          "char",
          "class",
          "const",
          "continue",
          "default",
          "do",
          "double",
          "else",
          "enum",
          "exports",
          "extends",
          "false",
          "final",
          "finally",
          "float",
          "for",
          "goto",
          "if",
          "implements",
          "import",
          "instanceof",
          "int",
          "interface",
          "long",
          "module",
          "native",
          "new",
          "non",
          "null",
          "open",
          "opens",
          "package",
          "permits",
          "private",
          "protected",
          "provides",
          "public",
          "record",
          "requires",
          "return",
          "sealed",
          "short",
          "static",
          "strictfp",
          "super",
          "switch",
          "synchronized",
          "this",
          "throw",
          "throws",
          "to",
          "transient",
          "transitive",
          "true",
          "try",
          "uses",
          "var",
          "void",
          "volatile",
          "when",
          "while",
          "with",
          "yield");

  /** The LoopX Python provider kit, copied beside a Python starter's script (kits/python). */
  static final String PYTHON_KIT = "loopx_provider.py";

  private Starter() {}

  /**
   * One file of the package.
   *
   * @param path the path relative to the package root, with {@code /} separators
   * @param content the bytes (UTF-8 text)
   * @param executable whether the file is a launcher (mode 0755)
   */
  // An array as component: the accessor copies and equals/hashCode/toString are overridden.
  @SuppressWarnings("ArrayRecordComponent")
  record PackageFile(String path, byte[] content, boolean executable) {
    PackageFile {
      Objects.requireNonNull(path, "path");
      content = content.clone();
    }

    @Override
    public byte[] content() {
      return content.clone();
    }

    @Override
    public boolean equals(@Nullable Object other) {
      return other instanceof PackageFile that
          && that.path.equals(path)
          && Arrays.equals(that.content, content)
          && that.executable == executable;
    }

    @Override
    public int hashCode() {
      return Objects.hash(path, Arrays.hashCode(content), executable);
    }

    @Override
    public String toString() {
      return "PackageFile["
          + path
          + ", "
          + content.length
          + " bytes, executable="
          + executable
          + "]";
    }
  }

  /**
   * The runtime protocol of a starter: the id with {@code -} as {@code _}, then {@code
   * _extension_v0}.
   */
  static ProtocolId protocol(ExtensionId id) {
    return ProtocolId.of(snake(id) + "_extension_v0");
  }

  /** The request schema version: {@code <id with - as _>_request_v0}. */
  static String requestSchemaVersion(ExtensionId id) {
    return snake(id) + "_request_v0";
  }

  /** The response schema version: {@code <id with - as _>_response_v0}. */
  static String responseSchemaVersion(ExtensionId id) {
    return snake(id) + "_response_v0";
  }

  /**
   * The Java package of the provider: {@code com.example.<id with - as _>}, with {@code _} appended
   * when that last segment is a Java keyword or restricted identifier.
   */
  static String javaPackage(ExtensionId id) {
    String segment = snake(id);
    return JAVA_PACKAGE_PREFIX + (RESERVED.contains(segment) ? segment + "_" : segment);
  }

  /** The provider's class name: the id in PascalCase, then {@code Provider}. */
  static String javaClass(ExtensionId id) {
    StringBuilder out = new StringBuilder();
    for (String part : id.value().split("-", -1)) {
      out.append(part.substring(0, 1).toUpperCase(Locale.ROOT)).append(part.substring(1));
    }
    return out.append("Provider").toString();
  }

  /** The launcher's path relative to the package root: {@code bin/<id>}. */
  static String launcher(ExtensionId id) {
    return "bin/" + id.value();
  }

  /** Renders the package's files in creation order. */
  static List<PackageFile> files(ExtensionId id, String version) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("ID", id.value());
    values.put("VERSION", version);
    values.put("PROTOCOL", protocol(id).value());
    values.put("REQUEST_SCHEMA", requestSchemaVersion(id));
    values.put("RESPONSE_SCHEMA", responseSchemaVersion(id));
    values.put("PACKAGE", javaPackage(id));
    values.put("PACKAGE_PATH", javaPackage(id).replace('.', '/'));
    values.put("CLASS", javaClass(id));
    String source =
        "src/main/java/" + values.get("PACKAGE_PATH") + "/" + values.get("CLASS") + ".java";
    List<PackageFile> files = new ArrayList<>();
    files.add(render("extension.toml", "extension.toml.tmpl", values, false));
    files.add(render(launcher(id), "launcher.sh.tmpl", values, true));
    files.add(render("pom.xml", "pom.xml.tmpl", values, false));
    files.add(render(source, "Provider.java.tmpl", values, false));
    files.add(render("schemas/request.schema.json", "request.schema.json.tmpl", values, false));
    files.add(render("schemas/response.schema.json", "response.schema.json.tmpl", values, false));
    files.add(render("examples/request.json", "request.json.tmpl", values, false));
    files.add(render("README.md", "README.md.tmpl", values, false));
    return List.copyOf(files);
  }

  /** Renders the files of a Python starter in creation order. */
  static List<PackageFile> pythonFiles(ExtensionId id, String version) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("ID", id.value());
    values.put("VERSION", version);
    values.put("PROTOCOL", protocol(id).value());
    values.put("REQUEST_SCHEMA", requestSchemaVersion(id));
    values.put("RESPONSE_SCHEMA", responseSchemaVersion(id));
    List<PackageFile> files = new ArrayList<>();
    files.add(render("extension.toml", "extension.toml.tmpl", values, false));
    files.add(render(launcher(id), "python/provider.py.tmpl", values, true));
    files.add(
        new PackageFile(
            "bin/" + PYTHON_KIT, template(PYTHON_KIT).getBytes(StandardCharsets.UTF_8), false));
    files.add(render("schemas/request.schema.json", "request.schema.json.tmpl", values, false));
    files.add(render("schemas/response.schema.json", "response.schema.json.tmpl", values, false));
    files.add(render("examples/request.json", "request.json.tmpl", values, false));
    files.add(render("README.md", "python/README.md.tmpl", values, false));
    return List.copyOf(files);
  }

  private static PackageFile render(
      String path, String template, Map<String, String> values, boolean executable) {
    String text = template(template);
    for (Map.Entry<String, String> e : values.entrySet()) {
      text = text.replace("{{" + e.getKey() + "}}", e.getValue());
    }
    int left = text.indexOf("{{");
    if (left >= 0 && text.indexOf("}}", left) >= 0) {
      throw new IllegalStateException(
          "starter template " + template + " has an unknown placeholder near offset " + left);
    }
    return new PackageFile(path, text.getBytes(StandardCharsets.UTF_8), executable);
  }

  private static String template(String name) {
    try (InputStream in = Starter.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("starter template " + name + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("starter template " + name + " cannot be read", e);
    }
  }

  private static String snake(ExtensionId id) {
    return id.value().replace('-', '_');
  }
}
