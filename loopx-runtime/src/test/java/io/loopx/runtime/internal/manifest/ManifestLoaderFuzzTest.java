package io.loopx.runtime.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.loopx.api.LoopxException;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.ManifestProblem;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Fuzz targets: arbitrary bytes give a valid manifest or a {@link ManifestException}, never another
 * exception or error. In the normal build Jazzer runs them in regression mode over the seed inputs
 * in {@code ManifestLoaderFuzzTestInputs/<method>/}; set {@code JAZZER_FUZZ=1} to fuzz.
 */
class ManifestLoaderFuzzTest {
  private static final ManifestLoader LOADER = new ManifestLoader();
  private static final Path DIR = Path.of("fuzz");
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  @FuzzTest(maxDuration = "30s")
  void parseYieldsAManifestOrAManifestException(byte[] content) {
    LoadedManifest loaded;
    try {
      loaded = LoadedManifest.parse(content, "fuzz.toml", DIR);
    } catch (ManifestException e) {
      assertThat(e.source()).isEqualTo("fuzz.toml");
      assertThat(e.getMessage()).startsWith("fuzz.toml: " + e.key() + ": ");
      assertEveryProblemIsReported(e, "fuzz.toml");
      return;
    }
    ExtensionManifest m = loaded.manifest();
    assertThat(loaded.revision()).isEqualTo(m.revision());
    // A loaded manifest always survives its own snapshot.
    assertThat(LOADER.fromNormalizedJson(m.toNormalizedJson(), "snapshot")).isEqualTo(m);
  }

  /**
   * The TOML layer alone: a tree, or a refusal of the file that names the line and column (or the
   * byte offset of invalid UTF-8). night-config never refuses what the strict check passed.
   */
  @FuzzTest(maxDuration = "30s")
  void tomlLayerRefusesWithAPosition(byte[] content) {
    try {
      TomlDocument.parse(content, "fuzz.toml");
    } catch (ManifestException e) {
      assertThat(e.key()).isEqualTo(ManifestException.FILE_KEY);
      assertThat(e.detail())
          .matches("(?s)is not valid (UTF-8 .*|TOML: line \\d+, column \\d+: .*)");
    }
  }

  @FuzzTest(maxDuration = "30s")
  void snapshotsYieldAManifestOrAManifestException(byte[] content) {
    JsonNode snapshot;
    try {
      snapshot = MAPPER.readTree(content);
    } catch (JacksonException e) {
      return; // not JSON: nothing for the loader to read
    }
    if (snapshot == null) {
      return;
    }
    try {
      ExtensionManifest m = LOADER.fromNormalizedJson(snapshot, "fuzz.json");
      assertThat(m.toNormalizedJson().toString()).isNotEmpty();
    } catch (LoopxException e) {
      assertThat(e).isInstanceOf(ManifestException.class);
      assertEveryProblemIsReported((ManifestException) e, "fuzz.json");
    }
  }

  /**
   * The exception is its first problem; every problem names the source and its key, with a position
   * (line and column together) or none; a TOML syntax error is the one problem.
   */
  private static void assertEveryProblemIsReported(ManifestException e, String source) {
    List<ManifestProblem> problems = e.problems();
    assertThat(problems).isNotEmpty();
    assertThat(problems.get(0).message()).isEqualTo(e.getMessage());
    assertThat(problems.get(0).key()).isEqualTo(e.key());
    for (ManifestProblem p : problems) {
      assertThat(p.message()).startsWith(source + ": " + p.key() + ": ");
      assertThat(p.line().isPresent()).isEqualTo(p.column().isPresent());
    }
    if (e.detail().startsWith("is not valid TOML: line ")) {
      assertThat(problems).hasSize(1);
      assertThat(problems.get(0).line()).isPresent();
    }
  }
}
