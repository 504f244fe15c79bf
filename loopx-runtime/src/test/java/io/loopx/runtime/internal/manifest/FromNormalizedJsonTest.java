package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.Manifests.FULL;
import static io.loopx.runtime.internal.manifest.Manifests.GOLDEN;
import static io.loopx.runtime.internal.manifest.Manifests.LOADER;
import static io.loopx.runtime.internal.manifest.Manifests.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.ErrorKind;
import io.loopx.api.json.CanonicalJson;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.ManifestException;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Reading back normalised snapshots: exact key sets, value rules, and exact round trip. */
class FromNormalizedJsonTest {
  private static final String SOURCE = "state.json#demo-ext";
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  @Test
  void snapshotsOfTomlManifestsRoundTripThroughJsonText() {
    for (String toml : new String[] {GOLDEN, FULL, Manifests.FULL.replace("bin/demo", "x")}) {
      ExtensionManifest m = parse(toml).manifest();
      JsonNode fromText = MAPPER.readTree(CanonicalJson.toText(m.toNormalizedJson()));

      ExtensionManifest back = LOADER.fromNormalizedJson(fromText, SOURCE);

      assertThat(back).isEqualTo(m);
      assertThat(back.toCanonicalJson()).isEqualTo(m.toCanonicalJson());
      assertThat(back.revision()).isEqualTo(m.revision());
    }
  }

  @Test
  void aJavaClassPathIsKeptInTheNormalisedFormAndChangesTheRevision() {
    String hostPath = FULL.replace("entrypoint = \"bin/demo\"", "java_main = \"io.example.Main\"");
    ExtensionManifest host = parse(hostPath).manifest();
    ExtensionManifest own =
        parse(
                hostPath.replace(
                    "java_main = \"io.example.Main\"",
                    "java_main = \"io.example.Main\"\n"
                        + "java_class_path = [\" lib/provider.jar\", \"classes/\"]"))
            .manifest();

    assertThat(host.toNormalizedJson().get("runtime").has("java_class_path")).isFalse();
    assertThat(own.toNormalizedJson().get("runtime").get("java_class_path").toString())
        .isEqualTo("[\"lib/provider.jar\",\"classes/\"]");
    assertThat(own.revision()).isNotEqualTo(host.revision());
    ExtensionManifest back =
        LOADER.fromNormalizedJson(
            MAPPER.readTree(CanonicalJson.toText(own.toNormalizedJson())), SOURCE);
    assertThat(back).isEqualTo(own);
    assertThat(back.revision()).isEqualTo(own.revision());
  }

  @Test
  void aSnapshotWhoseRangeNoLongerAdmitsThisRuntimeIsStillReadable() {
    ObjectNode snapshot = parse(GOLDEN).manifest().toNormalizedJson();
    snapshot.put("requires_loopx_api", ">=2,<3");
    ExtensionManifest m = LOADER.fromNormalizedJson(snapshot, SOURCE);
    assertThat(m.requiresLoopxApi().admitsCurrent()).isFalse();
  }

  static Stream<Arguments> corruptions() {
    return Stream.of(
        corrupt("extra top-level key", s -> s.put("homepage", "x"), "homepage"),
        corrupt("missing top-level key", s -> s.remove("permissions"), "permissions"),
        corrupt("missing runtime key", s -> s.remove("runtime"), "runtime"),
        corrupt(
            "missing defaulted runtime key",
            s -> runtime(s).remove("timeout_seconds"),
            "runtime.timeout_seconds"),
        corrupt("missing args", s -> runtime(s).remove("args"), "runtime.args"),
        corrupt("extra runtime key", s -> runtime(s).put("shell", true), "runtime.shell"),
        corrupt("extra implements key", s -> entry(s, "implements").put("x", 1), "implements[0].x"),
        corrupt(
            "missing provides visibility",
            s -> entry(s, "provides").remove("visibility"),
            "provides[0].visibility"),
        corrupt(
            "extra surface key",
            s -> entry(s, "presentation_surfaces").put("href", "x"),
            "presentation_surfaces[0].href"),
        corrupt(
            "missing surface visibility",
            s -> entry(s, "presentation_surfaces").remove("visibility"),
            "presentation_surfaces[0].visibility"),
        corrupt("wrong type: id number", s -> s.put("id", 5), "id"),
        corrupt(
            "wrong type: timeout string",
            s -> runtime(s).put("timeout_seconds", "45"),
            "runtime.timeout_seconds"),
        corrupt(
            "wrong type: timeout float",
            s -> runtime(s).put("timeout_seconds", 45.0),
            "runtime.timeout_seconds"),
        corrupt("wrong type: runtime array", s -> s.putArray("runtime"), "runtime"),
        corrupt("wrong type: null version", s -> s.putNull("version"), "version"),
        corrupt(
            "wrong type: null permission",
            s -> ((ArrayNode) s.get("permissions")).addNull(),
            "permissions[2]"),
        corrupt(
            "wrong type: metadata float",
            s -> entry(s, "provides").put("score", 0.5),
            "provides[0].score"),
        corrupt(
            "wrong type: metadata null",
            s -> entry(s, "provides").putNull("gone"),
            "provides[0].gone"),
        corrupt("rule: bad id", s -> s.put("id", "Demo"), "id"),
        corrupt(
            "rule: undeclared required permission",
            s -> ((ArrayNode) runtime(s).get("required_permissions")).add("demo.admin"),
            "runtime.required_permissions"),
        corrupt(
            "rule: both launch targets", s -> runtime(s).put("java_main", "io.x.Main"), "runtime"),
        corrupt(
            "rule: class path beside an entrypoint",
            s -> runtime(s).putArray("java_class_path").add("lib/a.jar"),
            "runtime.java_class_path"),
        corrupt("rule: lone surrogate", s -> s.put("version", "1\uD800"), "version"),
        corrupt("rule: control character", s -> s.put("version", "1\u001b[2J"), "version"),
        corrupt(
            "rule: bidi control in a provides title",
            s -> entry(s, "provides").put("title", "a\u202Eb"),
            "provides[0].title"),
        corrupt(
            "rule: C1 control in metadata",
            s -> entry(s, "provides").putArray("tags").add("a\u009Bb"),
            "provides[0].tags[0]"),
        corrupt("does not round-trip: untrimmed id", s -> s.put("id", " demo-ext"), "id"),
        corrupt(
            "does not round-trip: untrimmed arg",
            s -> ((ArrayNode) runtime(s).get("args")).add("--x "),
            "runtime.args[1]"),
        corrupt(
            "does not round-trip: blank optional field",
            s -> entry(s, "presentation_surfaces").put("empty_state_title", " "),
            "presentation_surfaces[0].empty_state_title"),
        corrupt(
            "does not round-trip: untrimmed metadata",
            s -> entry(s, "provides").putArray("tags").add(" a"),
            "provides[0].tags[0]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corruptions")
  void corruptSnapshotsAreRejectedNamingTheKey(Consumer<ObjectNode> corruption, String key) {
    ObjectNode snapshot = parse(FULL).manifest().toNormalizedJson();
    corruption.accept(snapshot);

    ManifestException e =
        catchThrowableOfType(
            ManifestException.class, () -> LOADER.fromNormalizedJson(snapshot, SOURCE));

    assertThat(e).as("expected a rejection").isNotNull();
    assertThat(e.kind()).isEqualTo(ErrorKind.MANIFEST_INVALID);
    assertThat(e.source()).isEqualTo(SOURCE);
    assertThat(e.key()).as(e.getMessage()).isEqualTo(key);
  }

  @Test
  void aSnapshotMustBeAnObject() {
    for (JsonNode node :
        new JsonNode[] {
          JsonNodeFactory.instance.arrayNode(),
          JsonNodeFactory.instance.stringNode("x"),
          JsonNodeFactory.instance.nullNode()
        }) {
      ManifestException e =
          catchThrowableOfType(
              ManifestException.class, () -> LOADER.fromNormalizedJson(node, SOURCE));
      assertThat(e.key()).isEqualTo(ManifestException.FILE_KEY);
    }
  }

  private static Arguments corrupt(String name, Consumer<ObjectNode> corruption, String key) {
    return Arguments.of(Named.of(name, corruption), key);
  }

  private static ObjectNode runtime(ObjectNode snapshot) {
    return (ObjectNode) snapshot.get("runtime");
  }

  private static ObjectNode entry(ObjectNode snapshot, String array) {
    return (ObjectNode) snapshot.get(array).get(0);
  }
}
