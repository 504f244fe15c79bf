package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.Manifests.GOLDEN;
import static io.loopx.runtime.internal.manifest.Manifests.LOADER;
import static io.loopx.runtime.internal.manifest.Manifests.parse;
import static io.loopx.runtime.internal.manifest.Manifests.rejection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.InvalidValueException;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.RuntimeSpec;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The optional {@code runtime.memory_mb} (docs/contract/manifest.md, run.md#memory-limit). */
class MemoryManifestTest {

  private static final String GOLDEN_REVISION = "1566783bb5842048";

  private static String withMemory(String value) {
    return GOLDEN.replace("doctor_args", "memory_mb = " + value + "\ndoctor_args");
  }

  @Test
  void withoutTheKeyTheGoldenVectorDoesNotMove() {
    ExtensionManifest golden = parse(GOLDEN).manifest();
    assertThat(golden.runtime().orElseThrow().memoryMb()).isEmpty();
    assertThat(golden.toCanonicalJson()).doesNotContain("memory_mb");
    assertThat(golden.revision().value()).isEqualTo(GOLDEN_REVISION);
  }

  @Test
  void aDeclaredValueIsKeptInTheNormalisedFormAfterTheTimeoutAndChangesTheRevision() {
    ExtensionManifest manifest = parse(withMemory("256")).manifest();
    assertThat(manifest.runtime().orElseThrow().memoryMb()).hasValue(256);
    assertThat(manifest.toCanonicalJson()).contains("\"memory_mb\":256");
    ObjectNode snapshot = manifest.toNormalizedJson();
    assertThat(snapshot.get("runtime").propertyNames())
        .containsSubsequence("timeout_seconds", "memory_mb");
    assertThat(manifest.revision().value()).isNotEqualTo(GOLDEN_REVISION);
    assertThat(LOADER.fromNormalizedJson(snapshot, "state")).isEqualTo(manifest);
  }

  @Test
  void theBoundsAreAccepted() {
    assertThat(parse(withMemory("16")).manifest().runtime().orElseThrow().memoryMb()).hasValue(16);
    assertThat(parse(withMemory("65536")).manifest().runtime().orElseThrow().memoryMb())
        .hasValue(65_536);
  }

  @Test
  void outOfBoundsAndOtherTypesAreRefusedAtTheKey() {
    for (String bad : new String[] {"15", "0", "65537", "-1", "16.0", "\"256\"", "false"}) {
      ManifestException e = rejection(withMemory(bad));
      assertThat(e.key()).as(bad).isEqualTo("runtime.memory_mb");
      assertThat(e.getMessage()).as(bad).contains("must be an integer 16..65536, got ");
    }
  }

  @Test
  void theRecordChecksTheBoundsToo() {
    RuntimeSpec spec = parse(GOLDEN).manifest().runtime().orElseThrow();
    assertThat(spec.withMemoryMb(OptionalInt.of(512)).memoryMb()).hasValue(512);
    assertThatThrownBy(() -> spec.withMemoryMb(OptionalInt.of(15)))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("runtime.memory_mb");
    assertThatThrownBy(() -> spec.withMemoryMb(OptionalInt.of(65_537)))
        .isInstanceOf(InvalidValueException.class);
  }

  @Test
  void aSnapshotMayOmitTheKeyButNotCarryABadOne() {
    ObjectNode snapshot = parse(GOLDEN).manifest().toNormalizedJson();
    assertThat(LOADER.fromNormalizedJson(snapshot, "state").runtime().orElseThrow().memoryMb())
        .isEmpty();
    ((ObjectNode) snapshot.get("runtime")).put("memory_mb", 8);
    assertThatThrownBy(() -> LOADER.fromNormalizedJson(snapshot, "state"))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("runtime.memory_mb");
  }
}
