package io.loopx.buildchecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compare / update cycle of signature files and the readability of the diff. */
class SignatureFilesTest {

  private static final List<String> LINES = List.of("# header", "exports a", "a.A: public class A");

  @TempDir Path dir;

  @Test
  void missingFileFailsWithTheUpdateInstruction() {
    Optional<String> failure =
        SignatureFiles.verifyOrUpdate(dir.resolve("m.txt"), LINES, false, "io.loopx.m");

    assertThat(failure).isPresent();
    assertThat(failure.get())
        .contains("No API signature file", "io.loopx.m", "-Dloopx.updateApiSignatures=true");
  }

  @Test
  void updateWritesTheFileAndAfterwardsItMatches() throws IOException {
    Path file = dir.resolve("api").resolve("m.txt");

    assertThat(SignatureFiles.verifyOrUpdate(file, LINES, true, "io.loopx.m")).isEmpty();
    assertThat(Files.readString(file, StandardCharsets.UTF_8))
        .isEqualTo("# header\nexports a\na.A: public class A\n");
    assertThat(SignatureFiles.verifyOrUpdate(file, LINES, false, "io.loopx.m")).isEmpty();
  }

  @Test
  void changedApiFailsWithMinusAndPlusLines() {
    Path file = dir.resolve("m.txt");
    SignatureFiles.write(file, LINES);
    List<String> changed =
        List.of("# header", "exports a", "a.A: public final class A", "a.A: public void run()");

    Optional<String> failure = SignatureFiles.verifyOrUpdate(file, changed, false, "io.loopx.m");

    assertThat(failure).isPresent();
    assertThat(failure.get())
        .contains(
            "The public API of io.loopx.m differs from",
            "- a.A: public class A\n",
            "+ a.A: public final class A\n",
            "+ a.A: public void run()\n",
            "-Dloopx.updateApiSignatures=true")
        .doesNotContain("- exports a", "+ exports a");
  }

  @Test
  void crlfCheckoutsCompareEqual() throws IOException {
    Path file = dir.resolve("m.txt");
    Files.writeString(file, String.join("\r\n", LINES) + "\r\n", StandardCharsets.UTF_8);

    assertThat(SignatureFiles.read(file)).isEqualTo(LINES);
  }

  @Test
  void reorderedLinesAreReported() {
    Optional<String> diff = SignatureFiles.diff(List.of("a", "b"), List.of("b", "a"));

    assertThat(diff).contains("- a\n+ a\n");
  }

  @Test
  void longDiffsAreCut() {
    List<String> many =
        IntStream.range(0, SignatureFiles.MAX_DIFF_LINES + 5)
            .mapToObj(i -> "line " + i)
            .collect(Collectors.toList());

    Optional<String> diff = SignatureFiles.diff(List.of(), many);

    assertThat(diff).isPresent();
    assertThat(diff.get()).contains("+ line 0\n", "... and 5 more changed lines");
    assertThat(diff.get()).doesNotContain("line " + SignatureFiles.MAX_DIFF_LINES + "\n");
  }
}
