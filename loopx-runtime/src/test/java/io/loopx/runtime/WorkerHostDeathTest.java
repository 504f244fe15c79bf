package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loopx.runtime.internal.process.LongLivedProcess;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the host dies, SIGKILL included, no worker survives it (docs/contract/worker.md): a real
 * child JVM host starts a worker that no longer reads its stdin, and is killed with SIGKILL.
 */
class WorkerHostDeathTest {
  @TempDir Path tmp;

  @Test
  void aHostKilledWithSigkillLeavesNoWorkerAfterTwoSeconds() throws Exception {
    assumeTrue(LongLivedProcess.diesWithHost(), "util-linux setpriv is not installed");
    DispatchTest fixture = new DispatchTest();
    fixture.tmp = tmp;
    Path dir = WorkerFixture.write(tmp.resolve("warm"), "1.0.0", 30, "[runtime.worker]\n");
    WorkerFixture.mode(dir, "deaf");
    try (Loopx installer = fixture.loopx(new DispatchTest.Contract())) {
      installer.install(WorkerFixture.load(dir), Mode.EXECUTE);
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Xshare:auto");
    command.add("-cp");
    command.add(classPath());
    command.add(WorkerHostMain.class.getName());
    command.add(tmp.resolve("root").toString());
    Process host =
        new ProcessBuilder(command).redirectError(tmp.resolve("host.stderr").toFile()).start();
    try {
      CompletableFuture<String> line =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return new BufferedReader(
                          new InputStreamReader(host.getInputStream(), StandardCharsets.UTF_8))
                      .readLine();
                } catch (java.io.IOException e) {
                  return null;
                }
              });
      String first = line.get(120, TimeUnit.SECONDS);
      assertThat(first).as("host stderr in %s", tmp.resolve("host.stderr")).startsWith("WORKER ");
      long worker = Long.parseLong(first.substring("WORKER ".length()).trim());
      assertThat(WorkerFixture.alive(worker)).isTrue();
      host.destroyForcibly(); // SIGKILL
      host.waitFor(30, TimeUnit.SECONDS);
      assertThat(
              WorkerFixture.eventually(Duration.ofSeconds(2), () -> !WorkerFixture.alive(worker)))
          .as("worker %d outlived its host", worker)
          .isTrue();
    } finally {
      host.destroyForcibly();
    }
  }

  private static String classPath() throws URISyntaxException {
    Set<String> entries = new LinkedHashSet<>();
    entries.add(codeSource(WorkerHostMain.class));
    entries.add(codeSource(Loopx.class));
    for (String property : List.of("java.class.path", "jdk.module.path")) {
      for (String entry : System.getProperty(property, "").split(File.pathSeparator)) {
        if (!entry.isBlank()) {
          entries.add(entry);
        }
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private static String codeSource(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
