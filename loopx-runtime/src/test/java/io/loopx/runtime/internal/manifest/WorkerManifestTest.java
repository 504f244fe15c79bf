package io.loopx.runtime.internal.manifest;

import static io.loopx.runtime.internal.manifest.Manifests.GOLDEN;
import static io.loopx.runtime.internal.manifest.Manifests.LOADER;
import static io.loopx.runtime.internal.manifest.Manifests.parse;
import static io.loopx.runtime.internal.manifest.Manifests.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.WorkerSpec;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The optional {@code [runtime.worker]} table (docs/contract/worker.md, "Manifest"). */
class WorkerManifestTest {

  private static final String GOLDEN_REVISION = "1566783bb5842048";

  @Test
  void withoutTheTableTheGoldenVectorDoesNotMove() {
    ExtensionManifest golden = parse(GOLDEN).manifest();
    assertThat(golden.runtime().orElseThrow().worker()).isEmpty();
    assertThat(golden.toCanonicalJson()).doesNotContain("worker");
    assertThat(golden.revision().value()).isEqualTo(GOLDEN_REVISION);
  }

  @Test
  void anEmptyTableMeansEveryDefaultAndTheDefaultsAreInTheNormalisedForm() {
    ExtensionManifest manifest = parse(GOLDEN + "[runtime.worker]\n").manifest();
    assertThat(manifest.runtime().orElseThrow().worker()).contains(WorkerSpec.defaults());
    assertThat(manifest.toCanonicalJson())
        .contains(
            "\"worker\":{\"args\":[\"--loopx-worker\"],\"idle_seconds\":300,"
                + "\"max_in_flight\":1,\"max_processes\":1,\"max_requests\":1000}");
    assertThat(manifest.revision().value()).isNotEqualTo(GOLDEN_REVISION);
  }

  @Test
  void givenValuesAreKeptTrimmedAndReadBackFromTheSnapshot() {
    ExtensionManifest manifest =
        parse(
                GOLDEN
                    + "[runtime.worker]\nargs = [\" --serve \", \"--fast\"]\nmax_in_flight = 64\n"
                    + "max_processes = 16\nidle_seconds = 3600\nmax_requests = 1000000\n")
            .manifest();
    WorkerSpec worker = manifest.runtime().orElseThrow().worker().orElseThrow();
    assertThat(worker)
        .isEqualTo(new WorkerSpec(List.of("--serve", "--fast"), 64, 16, 3600, 1_000_000));
    ObjectNode snapshot = manifest.toNormalizedJson();
    assertThat(LOADER.fromNormalizedJson(snapshot, "state")).isEqualTo(manifest);
  }

  @Test
  void anInlineTableAHeaderAndAMultiLineStringElsewhereGiveTheSameManifest() {
    String header =
        parse(GOLDEN + "[runtime.worker]\nmax_in_flight = 4\n").manifest().toCanonicalJson();
    String inline =
        parse(GOLDEN.replace("doctor_args", "worker = { max_in_flight = 4 }\ndoctor_args"))
            .manifest()
            .toCanonicalJson();
    // A multi-line string elsewhere in the document.
    String parsed =
        parse(
                GOLDEN.replace("version = \"1.0.0\"", "version = \"\"\"1.0.0\"\"\"")
                    + "[runtime.worker]\nmax_in_flight = 4\n")
            .manifest()
            .toCanonicalJson();
    assertThat(inline).isEqualTo(header);
    assertThat(parsed).isEqualTo(header);
  }

  @Test
  void aSnapshotNeedsEveryWorkerKeyAndNoOther() {
    ObjectNode snapshot = parse(GOLDEN + "[runtime.worker]\n").manifest().toNormalizedJson();
    ObjectNode missing = snapshot.deepCopy();
    ((ObjectNode) missing.get("runtime").get("worker")).remove("idle_seconds");
    assertThat(snapshotFailure(missing).key()).isEqualTo("runtime.worker.idle_seconds");
    ObjectNode extra = snapshot.deepCopy();
    ((ObjectNode) extra.get("runtime").get("worker")).put("pool", 1);
    assertThat(snapshotFailure(extra).key()).isEqualTo("runtime.worker.pool");
  }

  @Test
  void messagesNameTheKeyAndTheRule() {
    ManifestException e = rejection(GOLDEN + "[runtime.worker]\nmax_processes = 0\n");
    assertThat(e.getMessage())
        .endsWith("runtime.worker.max_processes: must be an integer 1..16, got 0");
    ManifestException args =
        rejection(GOLDEN + "[runtime.worker]\nargs = [" + "\"a\", ".repeat(33) + "\"b\"]\n");
    assertThat(args.getMessage())
        .endsWith("runtime.worker.args: must hold at most 32 arguments, got 34");
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
