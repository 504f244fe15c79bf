package io.loopx.buildchecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/COMPATIBILITY.md names exactly the types that are experimental in the signature files. */
class ExperimentalListTest {

  @Test
  void theCompatibilityPageNamesEveryExperimentalTypeAndNothingElse() throws IOException {
    List<String> lines = new ArrayList<>();
    for (LibraryModule module : LibraryModule.ALL) {
      lines.addAll(Files.readAllLines(module.signatureFile(), StandardCharsets.UTF_8));
    }
    String page =
        Files.readString(Path.of("..", "docs", "COMPATIBILITY.md"), StandardCharsets.UTF_8);

    assertThat(
            ExperimentalList.problems(
                ExperimentalList.experimentalTypes(lines), ExperimentalList.listed(page)))
        .isEmpty();
  }

  @Test
  void aMissingAndAStaleNameAreReported() {
    List<String> lines =
        List.of(
            "io.loopx.a.Kept: @org.apiguardian.api.API(status=STABLE, since=\"1.0\") public final class Kept",
            "io.loopx.a.Kept: @org.apiguardian.api.API(status=EXPERIMENTAL, since=\"1.0\") public int size()",
            "io.loopx.a.Outer.Inner: @org.apiguardian.api.API(status=EXPERIMENTAL, since=\"1.0\") public static record Outer.Inner",
            "io.loopx.a.Solid: @org.apiguardian.api.API(status=STABLE, since=\"1.0\") public enum Solid");
    String page =
        "# C\n### Experimental in 1.0\nProse naming `Outer.Inner` is not the list.\n\n"
            + "- `Kept#size`: may change,\n  and so may `Solid`.\n\n`Other`\n## Wire\n- `Outer.Inner`\n";

    assertThat(
            ExperimentalList.problems(
                ExperimentalList.experimentalTypes(lines), ExperimentalList.listed(page)))
        .containsExactly(
            "Outer.Inner: EXPERIMENTAL in a signature file, not named in docs/COMPATIBILITY.md",
            "Solid: named in docs/COMPATIBILITY.md, but nothing of it is EXPERIMENTAL");
  }
}
