package io.loopx.runtime.internal.process;

import static io.loopx.runtime.internal.process.ProcessFixtures.gone;
import static io.loopx.runtime.internal.process.ProcessFixtures.writeScript;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loopx.runtime.internal.state.JavaCommand;
import io.loopx.runtime.spi.Containment;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A one-shot call has no keeper (docs/process.md "Host death"): when its host JVM is SIGKILLed in
 * the middle of the call, the provider and a pid hopper it started keep running in the dead host's
 * cgroup until the next LoopX JVM in the same cgroup starts, whose sweep kills them and removes the
 * cgroup's directories. Real child JVMs; skipped where no cgroup is writable.
 */
class OneShotHostDeathTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void theNextStartSweepsADeadHostsOneShotCall() throws Exception {
    assumeTrue(
        OsProcessLauncher.create().containment().orElseThrow() != Containment.PROCESS_GROUP,
        "no writable cgroup");
    Path script =
        writeScript(
            dir.resolve("provider"),
            "echo $$ > \"$1.tmp\" && mv \"$1.tmp\" \"$1\"",
            "( sleep 600 < /dev/null > /dev/null 2>&1 & echo $! > \"$2.tmp\"; mv \"$2.tmp\" \"$2\" ) &",
            "exec sleep 600");
    Path pidFile = dir.resolve("pid");
    Path hopFile = dir.resolve("hop");
    Process host = start("run", script.toString(), pidFile.toString(), hopFile.toString());
    long pid = -1;
    long hop = -1;
    try {
      pid = awaitPid(pidFile);
      hop = awaitPid(hopFile);
      List<Path> cgroup = CgroupWatch.callCgroupsOf(pid);
      assertThat(cgroup).as("the call's cgroup").isNotEmpty();
      assertThat(CgroupWatch.callCgroupsOf(hop)).isEqualTo(cgroup);

      host.destroyForcibly(); // SIGKILL
      assertThat(host.waitFor(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
      // Nothing ends them while no LoopX JVM starts: the call had no keeper.
      assertThat(gone(pid) || gone(hop)).as("provider or hopper ended without the sweep").isFalse();
      assertThat(cgroup).allMatch(Files::isDirectory);

      Process next = start("start");
      String line =
          new BufferedReader(new InputStreamReader(next.getInputStream(), StandardCharsets.UTF_8))
              .readLine();
      assertThat(next.waitFor(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(line).startsWith("STARTED cgroup_");

      // The sweep ran before the next host printed anything.
      assertThat(gone(pid)).as("provider %d survived the sweep", pid).isTrue();
      assertThat(gone(hop)).as("hopper %d survived the sweep", hop).isTrue();
      assertThat(cgroup).noneMatch(Files::exists);
    } finally {
      host.destroyForcibly();
      for (long p : new long[] {pid, hop}) {
        if (p > 0) {
          ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
    }
  }

  private Process start(String... args) throws IOException, URISyntaxException {
    return new ProcessBuilder(JavaCommand.of(OneShotHostMain.class, OsProcessLauncher.class, args))
        .redirectError(dir.resolve("host-" + args[0] + ".stderr").toFile())
        .start();
  }

  private static long awaitPid(Path file) throws IOException {
    assertThat(ProcessGroup.pollUntil(SAFETY, () -> Files.exists(file)))
        .as("%s never written", file)
        .isTrue();
    return Long.parseLong(Files.readString(file).trim());
  }
}
