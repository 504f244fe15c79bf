package io.loopx.samples.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: the {@code target/loopx} launcher the build writes beside the shaded jar, with the
 * class-data archive it dumped ({@code target/loopx.jsa}). Same output as {@code java -jar}; JVM
 * messages never reach stdout, also when the archive cannot be used.
 */
class LauncherIT {
  @TempDir Path tmp;
  Path target;
  Path root;

  @BeforeEach
  void setUp() {
    Path jar = Path.of(System.getProperty("loopx.cli.jar", "target/loopx.jar")).toAbsolutePath();
    target = jar.getParent();
    root = tmp.resolve("runtime-root");
    Cli.openToTheSandbox(tmp);
  }

  private Cli.Result run(Path launcher, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("/bin/sh", launcher.toString()));
    command.addAll(List.of(args));
    command.addAll(List.of("--runtime-root", root.toString()));
    Path out = Files.createTempFile(tmp, "out", ".txt");
    Path err = Files.createTempFile(tmp, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(tmp.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process process = builder.start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(command + " did not finish within 120 s");
    }
    return new Cli.Result(
        process.exitValue(),
        new String(Files.readAllBytes(out), UTF_8),
        new String(Files.readAllBytes(err), UTF_8));
  }

  @Test
  void theLauncherRunsTheCliWithItsArchive() throws Exception {
    assertThat(target.resolve("loopx")).isExecutable();
    assertThat(target.resolve("loopx.jsa")).isRegularFile();
    String manifest = Cli.writeProvider(tmp.resolve("pkg"), "demo-ext", "1.0.0").toString();

    Cli.Result installed =
        run(target.resolve("loopx"), "extension", "install", "--manifest", manifest, "--execute");
    assertThat(installed.exitCode()).as(installed.stderr()).isZero();
    Cli.Result listed = run(target.resolve("loopx"), "extension", "list", "--format", "json");
    assertThat(listed.exitCode()).isZero();
    assertThat(listed.stderr()).isEmpty();
    assertThat(listed.json().get("extensions").get(0).get("id").stringValue())
        .isEqualTo("demo-ext");

    // -Xshare:on refuses to start when the archive cannot be mapped for this jar and JVM.
    Process strict =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:SharedArchiveFile=" + target.resolve("loopx.jsa"),
                "-Xshare:on",
                "-jar",
                target.resolve("loopx.jar").toString(),
                "--version")
            .redirectErrorStream(true)
            .start();
    String output = new String(strict.getInputStream().readAllBytes(), UTF_8);
    assertThat(strict.waitFor()).as(output).isZero();
    assertThat(output).startsWith("loopx ");
  }

  @Test
  void anArchiveThatDoesNotFitTheJarIsIgnoredQuietly() throws Exception {
    Path copy = Files.createDirectory(tmp.resolve("copy"));
    Files.copy(target.resolve("loopx"), copy.resolve("loopx"));
    Files.copy(target.resolve("loopx.jsa"), copy.resolve("loopx.jsa"));
    Files.copy(target.resolve("loopx.jar"), copy.resolve("loopx.jar"));
    Files.setLastModifiedTime(copy.resolve("loopx.jar"), FileTime.from(Instant.now()));

    Cli.Result listed = run(copy.resolve("loopx"), "extension", "list", "--format", "json");
    assertThat(listed.exitCode()).isZero();
    assertThat(listed.stderr()).isEmpty();
    assertThat(listed.json().get("extensions")).isEmpty();
  }
}
