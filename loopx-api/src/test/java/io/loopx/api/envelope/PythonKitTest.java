package io.loopx.api.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the Python provider kit's own tests ({@code kits/python/test_loopx_provider.py}, standard
 * library {@code unittest}) with {@code python3}, a test prerequisite (README): they check the kit
 * against the same vectors as {@link EnvelopeVectorsTest} and the ES6 number oracle, so the build
 * fails when the kit and the Java implementation disagree.
 */
class PythonKitTest {
  private static final Path KIT = Path.of("..", "kits", "python").toAbsolutePath().normalize();

  @Test
  void thePythonKitPassesItsTestsAgainstTheVectors(@TempDir Path tmp)
      throws IOException, InterruptedException {
    assertThat(KIT.resolve("loopx_provider.py")).isRegularFile();
    Path log = tmp.resolve("unittest.log");
    Process p =
        new ProcessBuilder(
                "python3", "-B", "-m", "unittest", "discover", "-s", KIT.toString(), "-v")
            .directory(tmp.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    boolean ended = p.waitFor(5, TimeUnit.MINUTES); // a safety net; the run takes under a second
    if (!ended) {
      p.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(ended).as("python3 unittest did not end:%n%s", output).isTrue();
    assertThat(p.exitValue()).as("python3 unittest failed:%n%s", output).isZero();
    assertThat(output).contains("OK").containsPattern("Ran [1-9][0-9]+ tests");
  }
}
