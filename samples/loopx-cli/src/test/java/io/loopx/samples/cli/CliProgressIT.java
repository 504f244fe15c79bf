package io.loopx.samples.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Progress of {@code extension doctor --all-enabled} in a real pseudo-terminal ({@code script} from
 * util-linux gives the child a pty as stdin, stdout and stderr; stdout is redirected to a file
 * inside it so only stderr reaches the terminal): shown on a terminal in text format, never in JSON
 * format and never when stderr is redirected.
 */
class CliProgressIT {
  static final Path SCRIPT = Path.of("/usr/bin/script");

  @TempDir Path tmp;
  JarProcess loopx;
  Path root;

  @BeforeEach
  void setUp() throws Exception {
    assertThat(SCRIPT).as("util-linux script(1) runs the pseudo-terminal").isExecutable();
    loopx = new JarProcess(tmp, Map.of("LC_ALL", "C", "LANG", "C"));
    root = tmp.resolve("runtime-root");
    for (String id : List.of("alpha-ext", "beta-ext")) {
      Path manifest = Cli.writeProvider(tmp.resolve(id), id, "1.0.0");
      Cli.Result r =
          loopx.run(
              "extension",
              "install",
              "--manifest",
              manifest.toString(),
              "--execute",
              "--runtime-root",
              root.toString());
      assertThat(r.exitCode()).as(r.stderr()).isZero();
    }
  }

  @Test
  void progressOnATerminalInTextFormatOnly() throws Exception {
    Path out = tmp.resolve("text.out");
    String terminal = inTerminal(out, "--execute");
    assertThat(terminal)
        .contains("loopx: doctor 1 of 2: alpha-ext")
        .contains("loopx: doctor 2 of 2: beta-ext");
    assertThat(terminal.indexOf("1 of 2")).isLessThan(terminal.indexOf("2 of 2"));
    String stdout = Files.readString(out, UTF_8);
    assertThat(stdout).containsPattern("(?m)^status: +ready$").doesNotContain("loopx: doctor");

    Path json = tmp.resolve("json.out");
    assertThat(inTerminal(json, "--execute", "--format", "json")).doesNotContain("loopx: doctor");
    assertThat(Cli.JSON.readTree(Files.readString(json, UTF_8)).get("verified_count").intValue())
        .isEqualTo(2);

    Cli.Result redirected =
        loopx.run(
            "extension", "doctor", "--all-enabled", "--execute", "--runtime-root", root.toString());
    assertThat(redirected.exitCode()).isZero();
    assertThat(redirected.stderr()).isEmpty();
  }

  /**
   * Runs {@code loopx extension doctor --all-enabled EXTRA} under {@code script} with stdout
   * redirected to {@code stdout}; returns what reached the terminal (stderr).
   */
  private String inTerminal(Path stdout, String... extra) throws IOException, InterruptedException {
    List<String> words = new ArrayList<>();
    words.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    words.add("-jar");
    words.add(
        Path.of(System.getProperty("loopx.cli.jar", "target/loopx.jar"))
            .toAbsolutePath()
            .toString());
    words.addAll(
        List.of("extension", "doctor", "--all-enabled", "--runtime-root", root.toString()));
    words.addAll(List.of(extra));
    StringBuilder command = new StringBuilder();
    for (String w : words) {
      command.append(quote(w)).append(' ');
    }
    command.append("> ").append(quote(stdout.toString()));
    Path typescript = tmp.resolve("terminal-" + stdout.getFileName());
    ProcessBuilder builder =
        new ProcessBuilder(SCRIPT.toString(), "-qfec", command.toString(), "/dev/null")
            .directory(tmp.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(typescript.toFile())
            .redirectErrorStream(true);
    builder.environment().put("LC_ALL", "C");
    Process process = builder.start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("script did not finish within 120 s");
    }
    String terminal = Files.readString(typescript, UTF_8);
    assertThat(process.exitValue()).as(terminal).isZero();
    return terminal;
  }

  private static String quote(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
