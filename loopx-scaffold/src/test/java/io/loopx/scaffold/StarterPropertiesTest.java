package io.loopx.scaffold;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.loopx.api.ExtensionId;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Properties of the rendered starter over generated extension ids (including Java keywords): the
 * manifest loads with the real loader and names the derived protocol and launcher; the Java package
 * and class are legal identifiers; the JSON files parse; no placeholder is left.
 */
class StarterPropertiesTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** JLS 17 §3.9 keywords and the literals, written out independently of {@link Starter}. */
  private static final Set<String> KEYWORDS =
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
          "extends",
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
          "native",
          "new",
          "package",
          "private",
          "protected",
          "public",
          "return",
          "short",
          "static",
          "strictfp",
          "super",
          "switch",
          "synchronized",
          "this",
          "throw",
          "throws",
          "transient",
          "try",
          "void",
          "volatile",
          "while",
          "true",
          "false",
          "null",
          "_");

  private static final String FIRST = "abcdefghijklmnopqrstuvwxyz";
  private static final String REST = FIRST + "0123456789";

  /** A random valid extension id of 1..48 characters. */
  static String randomId(Random random) {
    int budget = 1 + random.nextInt(48);
    StringBuilder id = new StringBuilder();
    id.append(FIRST.charAt(random.nextInt(FIRST.length())));
    while (id.length() < budget) {
      boolean dash =
          id.length() + 2 <= budget && id.charAt(id.length() - 1) != '-' && random.nextInt(4) == 0;
      id.append(dash ? '-' : REST.charAt(random.nextInt(REST.length())));
    }
    return id.charAt(id.length() - 1) == '-' ? id.substring(0, id.length() - 1) : id.toString();
  }

  static Gen<String> ids() {
    Gen<String> random = longs().all().map(seed -> randomId(new Random(seed)));
    Gen<String> tricky =
        Generate.pick(
            List.of(
                "class",
                "int",
                "true",
                "null",
                "var",
                "record",
                "yield",
                "a",
                "x-1",
                "for-each",
                "do-2",
                "a-b-c-d-e-f-g-h"));
    return random.mix(tricky, 25);
  }

  static boolean isJavaIdentifier(String s) {
    if (s.isEmpty() || !Character.isJavaIdentifierStart(s.codePointAt(0))) {
      return false;
    }
    return s.codePoints().allMatch(Character::isJavaIdentifierPart) && !KEYWORDS.contains(s);
  }

  @Test
  void everyValidIdRendersALoadableConsistentPackage() {
    qt().withExamples(120)
        .forAll(ids())
        .checkAssert(
            raw -> {
              ExtensionId id = ExtensionId.of(raw);
              List<Starter.PackageFile> files = Starter.files(id, "1.2.3");
              Map<String, String> text =
                  files.stream()
                      .collect(
                          Collectors.toMap(
                              Starter.PackageFile::path, f -> new String(f.content(), UTF_8)));
              text.forEach((path, content) -> assertThat(content).as(path).doesNotContain("{{"));

              ExtensionManifest manifest =
                  LoadedManifest.parse(
                          text.get("extension.toml").getBytes(UTF_8),
                          "starter",
                          Path.of("/starter").toAbsolutePath())
                      .manifest();
              assertThat(manifest.id()).isEqualTo(id);
              assertThat(manifest.version()).isEqualTo("1.2.3");
              assertThat(manifest.permissions()).isEmpty();
              ProtocolId protocol = manifest.runtime().orElseThrow().protocol();
              assertThat(protocol.value()).isEqualTo(raw.replace('-', '_') + "_extension_v0");
              assertThat(manifest.runtime().orElseThrow().launchTarget())
                  .isEqualTo(new LaunchTarget.Executable("bin/" + raw));

              String pkg = Starter.javaPackage(id);
              String cls = Starter.javaClass(id);
              assertThat(pkg.split("\\.", -1))
                  .allSatisfy(s -> assertThat(isJavaIdentifier(s)).as(pkg).isTrue());
              assertThat(isJavaIdentifier(cls)).as(cls).isTrue();
              String sourcePath = "src/main/java/" + pkg.replace('.', '/') + "/" + cls + ".java";
              assertThat(text).containsKey(sourcePath);
              assertThat(text.get(sourcePath))
                  .startsWith("package " + pkg + ";\n")
                  .contains("public final class " + cls + " {");
              assertThat(text).containsKey("bin/" + raw);

              Function<String, JsonNode> json = path -> JSON.readTree(text.get(path));
              assertThat(json.apply("examples/request.json").get("schema_version").stringValue())
                  .isEqualTo(
                      json.apply("schemas/request.schema.json")
                          .get("properties")
                          .get("schema_version")
                          .get("const")
                          .stringValue())
                  .isEqualTo(raw.replace('-', '_') + "_request_v0");
              assertThat(json.apply("schemas/response.schema.json").get("$id").stringValue())
                  .isEqualTo("urn:loopx:schema:" + raw.replace('-', '_') + "_response_v0");
            });
  }
}
