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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the shaded {@code target/loopx.jar} as a child process ({@code ${java.home}/bin/java -jar}),
 * with the class-data archive {@code loopx.jsa} beside it when there is one (as {@code bin/loopx}
 * does), capturing stdout and stderr as UTF-8 through files (no pipe can fill up).
 */
final class JarProcess {
  private final Path jar;
  private final Path outputDir;
  private final Map<String, String> environment;
  private final AtomicInteger runs = new AtomicInteger();

  JarProcess(Path outputDir, Map<String, String> environment) {
    this.jar = Path.of(System.getProperty("loopx.cli.jar", "target/loopx.jar")).toAbsolutePath();
    this.outputDir = outputDir;
    // The CLI runs standalone extensions isolated: on a root host as uid 65534, which must reach
    // the packages the tests write under outputDir (a 0700 JUnit temporary directory).
    Cli.openToTheSandbox(outputDir);
    this.environment = Map.copyOf(environment);
    assertThat(jar).as("the shaded CLI jar (built in package)").isRegularFile();
  }

  /** Runs {@code java -jar loopx.jar ARGS} and waits for it (a minute at most: a safety net). */
  Cli.Result run(List<String> args) throws IOException, InterruptedException {
    return run(List.of(), Path.of("/dev/null"), args);
  }

  /**
   * Runs {@code java JVM_OPTIONS -jar loopx.jar ARGS} with stdin from {@code stdin} and waits for
   * it (two minutes at most: a safety net).
   */
  Cli.Result run(List<String> jvmOptions, Path stdin, List<String> args)
      throws IOException, InterruptedException {
    int n = runs.incrementAndGet();
    Path out = outputDir.resolve("run-" + n + ".out");
    Path err = outputDir.resolve("run-" + n + ".err");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    Path archive = jar.resolveSibling("loopx.jsa");
    if (Files.isRegularFile(archive)) {
      // As the shipped launcher does: the class-data archive built beside the jar, if it maps.
      command.add("-XX:SharedArchiveFile=" + archive);
      command.add("-Xshare:auto");
    }
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(args);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(outputDir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(stdin.toFile()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().remove("NO_COLOR");
    builder.environment().putAll(environment);
    Process process = builder.start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("loopx " + args + " did not finish within 120 s");
    }
    return new Cli.Result(
        process.exitValue(),
        new String(Files.readAllBytes(out), UTF_8),
        new String(Files.readAllBytes(err), UTF_8));
  }

  Cli.Result run(String... args) throws IOException, InterruptedException {
    return run(List.of(args));
  }
}
