package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.Manifests.GOLDEN;
import static io.loopx.runtime.internal.manifest.Manifests.LOADER;
import static io.loopx.runtime.internal.manifest.Manifests.parse;
import static io.loopx.runtime.internal.manifest.Manifests.rejection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.RuntimeAccess;
import io.loopx.api.manifest.RuntimeSpec;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The optional {@code runtime.access} key (docs/contract/manifest.md#runtime-access). */
class AccessManifestTest {
  private static final String GOLDEN_REVISION = "1566783bb5842048";
  private static final String IMPLEMENTS =
      "\n[[implements]]\ncapability_id = \"semantic-preference\"\nprotocol = \"golden_example_v0\"\n";

  /** The golden runtime with {@code access = <array>}, implementing a capability. */
  private static String provider(String array) {
    return GOLDEN + "access = " + array + "\n" + IMPLEMENTS;
  }

  private static ManifestException refused(String array) {
    ManifestException e = rejection(provider(array));
    assertThat(e.kind()).isEqualTo(ErrorKind.MANIFEST_INVALID);
    return e;
  }

  @Test
  void absentOrEmptyLeavesTheGoldenVectorAndTheRevisionAlone() {
    ExtensionManifest golden = parse(GOLDEN).manifest();
    assertThat(golden.runtime().orElseThrow().access()).isEqualTo(RuntimeAccess.NONE);
    assertThat(golden.toCanonicalJson()).doesNotContain("access");
    assertThat(golden.revision().value()).isEqualTo(GOLDEN_REVISION);
    // An empty array on the golden (standalone) manifest is no declaration: same revision.
    ExtensionManifest empty = parse(GOLDEN + "access = []\n").manifest();
    assertThat(empty.revision().value()).isEqualTo(GOLDEN_REVISION);
    assertThat(empty).isEqualTo(golden);
    // And a provider's revision does not move either.
    assertThat(parse(provider("[]")).manifest().revision())
        .isEqualTo(parse(GOLDEN + IMPLEMENTS).manifest().revision());
  }

  @Test
  void presentItIsInTheNormalisedFormSortedAndTrimmed() {
    ExtensionManifest m =
        parse(provider("[\"write:cache\", \" network \", \"read:data\", \"read:models\"]"))
            .manifest();
    RuntimeAccess access = m.runtime().orElseThrow().access();
    assertThat(access.network()).isTrue();
    assertThat(access.readRoots()).containsExactly("data", "models");
    assertThat(access.writeRoots()).containsExactly("cache");
    assertThat(access.wireWords())
        .containsExactly("network", "read:data", "read:models", "write:cache");
    assertThat(m.toCanonicalJson())
        .contains(
            "\"access\":[\"network\",\"read:data\",\"read:models\",\"write:cache\"],\"args\":[]");
    assertThat(m.revision()).isNotEqualTo(parse(GOLDEN + IMPLEMENTS).manifest().revision());
    // Read back from its snapshot.
    assertThat(LOADER.fromNormalizedJson(m.toNormalizedJson(), "state")).isEqualTo(m);
  }

  @Test
  void eachRuleIsRefusedAtItsKeyWithItsReason() {
    assertThat(refused("\"network\"").getMessage())
        .endsWith("runtime.access: must be an array of strings, got a string");
    assertThat(refused("[1]").getMessage())
        .endsWith("runtime.access[0]: must be a string, got an integer");
    assertThat(refused("[\"network\", \"\"]").getMessage())
        .endsWith("runtime.access[1]: must not be empty");
    assertThat(refused("[\"internet\"]").getMessage())
        .endsWith(
            "runtime.access[0]: must be `network`, `read:<root>` or `write:<root>`, got"
                + " `internet`");
    assertThat(refused("[\"Network\"]").key()).isEqualTo("runtime.access[0]");
    assertThat(refused("[\"exec:tools\"]").key()).isEqualTo("runtime.access[0]");
    assertThat(refused("[\"read:Data\"]").getMessage())
        .endsWith(
            "runtime.access[0]: access root `Data` must be 1..32 characters of lower-kebab-case"
                + " ([a-z][a-z0-9]*(-[a-z0-9]+)*)");
    assertThat(refused("[\"read:\"]").key()).isEqualTo("runtime.access[0]");
    assertThat(refused("[\"write:a--b\"]").key()).isEqualTo("runtime.access[0]");
    assertThat(refused("[\"write:../etc\"]").key()).isEqualTo("runtime.access[0]");
    assertThat(refused("[\"read: data\"]").key()).isEqualTo("runtime.access[0]");
    assertThat(refused("[\"read:data\", \"network\", \"read:data\"]").getMessage())
        .endsWith("runtime.access[2]: duplicate access `read:data`");
    assertThat(refused("[\"write:data\", \"read:data\"]").getMessage())
        .endsWith(
            "runtime.access[1]: declares both `read:data` and `write:data`; write implies read,"
                + " declare only `write:data`");
    assertThat(refused("[\"read:data\", \"write:data\"]").key()).isEqualTo("runtime.access[1]");
    assertThat(refused("[\"a\\u0007\"]").getMessage())
        .endsWith("runtime.access[0]: contains a control character U+0007");
  }

  @Test
  void boundsOnTheRootLengthAndTheNumberOfEntries() {
    String root32 = "r" + "0".repeat(31);
    assertThat(
            parse(provider("[\"read:" + root32 + "\"]"))
                .manifest()
                .runtime()
                .orElseThrow()
                .access()
                .readRoots())
        .containsExactly(root32);
    assertThat(refused("[\"read:" + root32 + "0\"]").key()).isEqualTo("runtime.access[0]");
    String sixteen = words(16);
    assertThat(parse(provider(sixteen)).manifest().runtime().orElseThrow().access().roots())
        .hasSize(16);
    assertThat(refused(words(17)).getMessage())
        .endsWith("runtime.access: must hold at most 16 entries, got 17");
  }

  @Test
  void aStandaloneExtensionMayDeclareNoAccess() {
    ManifestException e = rejection(GOLDEN + "access = [\"network\"]\n");
    assertThat(e.kind()).isEqualTo(ErrorKind.MANIFEST_INVALID);
    assertThat(e.getMessage())
        .endsWith(
            "runtime.access: a standalone extension (no [[provides]] or [[implements]]) may"
                + " declare no access: `extension run` grants none");
    assertThat(e.problems().get(0).line()).isPresent();
    // The manifest record refuses it too.
    ExtensionManifest golden = parse(GOLDEN).manifest();
    RuntimeSpec withAccess =
        golden.runtime().orElseThrow().withAccess(RuntimeAccess.of(List.of("network")));
    InvalidValueException record =
        catchThrowableOfType(
            InvalidValueException.class,
            () ->
                new ExtensionManifest(
                    golden.id(),
                    golden.version(),
                    golden.requiresLoopxApi(),
                    golden.permissions(),
                    Optional.of(withAccess),
                    golden.provides(),
                    golden.implementations(),
                    golden.presentationSurfaces()));
    assertThat(record).hasMessageContaining("runtime.access").hasMessageContaining("standalone");
  }

  @Test
  void aRuntimeOlderThanTheKeyWouldHaveRefusedItAndOtherProblemsAreStillReported() {
    // Problems after the key are still collected (every problem at once).
    ManifestException e =
        rejection(
            GOLDEN.replace("doctor_args", "timeout_seconds = 0\ndoctor_args")
                + "access = [\"nope\"]\n"
                + IMPLEMENTS);
    assertThat(e.problems())
        .extracting(p -> p.key())
        .containsExactly("runtime.timeout_seconds", "runtime.access[0]");
  }

  @Test
  void theSnapshotMustBeNormalised() {
    ExtensionManifest m = parse(provider("[\"read:data\", \"network\"]")).manifest();
    ObjectNode unsorted = m.toNormalizedJson();
    ArrayNode access = (ArrayNode) unsorted.get("runtime").get("access");
    access.removeAll();
    access.add("read:data").add("network");
    assertThat(snapshotFailure(unsorted).getMessage())
        .contains("is not in normalised form (normalising the snapshot changes it)");
    ObjectNode empty = m.toNormalizedJson();
    ((ArrayNode) empty.get("runtime").get("access")).removeAll();
    assertThat(snapshotFailure(empty).getMessage()).contains("is not in normalised form");
    ObjectNode bad = m.toNormalizedJson();
    ((ArrayNode) bad.get("runtime").get("access")).add("write:data");
    assertThat(snapshotFailure(bad).key()).isEqualTo("runtime.access[2]");
  }

  @Test
  void theRecordChecksWhatTheLoaderChecks() {
    assertThat(RuntimeAccess.of(List.of()).isNone()).isTrue();
    assertThat(RuntimeAccess.of(List.of("write:b", "read:a")))
        .isEqualTo(new RuntimeAccess(false, List.of("a"), List.of("b")));
    assertThat(
            catchThrowableOfType(InvalidValueException.class, () -> RuntimeAccess.of(List.of("x"))))
        .hasMessageContaining("runtime.access");
    assertThat(
            catchThrowableOfType(
                InvalidValueException.class,
                () -> new RuntimeAccess(false, List.of("a"), List.of("a"))))
        .hasMessageContaining("write implies read");
    assertThat(
            catchThrowableOfType(
                InvalidValueException.class,
                () -> new RuntimeAccess(false, List.of("A"), List.of())))
        .hasMessageContaining("lower-kebab-case");
    assertThat(
            catchThrowableOfType(
                InvalidValueException.class, () -> RuntimeAccess.of(List.of("network", "network"))))
        .hasMessageContaining("must not repeat");
    List<String> seventeen =
        IntStream.range(0, 17).mapToObj(i -> "read:r" + i).collect(Collectors.toList());
    assertThat(catchThrowableOfType(InvalidValueException.class, () -> RuntimeAccess.of(seventeen)))
        .hasMessageContaining("at most 16");
    assertThat(
            catchThrowableOfType(
                InvalidValueException.class,
                () ->
                    new RuntimeAccess(
                        true,
                        List.of("r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"),
                        List.of("w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7"))))
        .hasMessageContaining("at most 16");
  }

  private static String words(int n) {
    return IntStream.range(0, n)
        .mapToObj(i -> "\"read:r" + i + "\"")
        .collect(Collectors.joining(", ", "[", "]"));
  }

  private static ManifestException snapshotFailure(ObjectNode snapshot) {
    try {
      LOADER.fromNormalizedJson(snapshot, "state");
    } catch (ManifestException e) {
      return e;
    }
    throw new AssertionError("snapshot accepted: " + snapshot);
  }
}
