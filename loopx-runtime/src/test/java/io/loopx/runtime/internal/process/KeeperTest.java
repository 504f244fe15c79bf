package io.loopx.runtime.internal.process;

import static io.loopx.runtime.internal.process.ProcessFixtures.ENV;
import static io.loopx.runtime.internal.process.ProcessFixtures.gone;
import static io.loopx.runtime.internal.process.ProcessFixtures.writeScript;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loopx.runtime.spi.LaunchRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The keeper of a worker's cgroup ({@link Keeper}) with real processes, for every cgroup mechanism
 * this machine offers (none where no cgroup is writable: then nothing runs). Its pipe's end-of-file
 * — what the host's death causes — empties and removes the cgroup, including a pid hopper that left
 * its parent; on the normal path (the host retires the worker) the keeper exits with the worker and
 * leaves nothing. The host's death itself is {@code WorkerHostDeathTest}'s.
 */
class KeeperTest {
  private static final Duration SAFETY = Duration.ofSeconds(15);

  /** Records its pid in {@code $1}, starts a pid hopper that records its pid in {@code $2}. */
  private static final String[] WORKER = {
    "echo $$ > \"$1.tmp\" && mv \"$1.tmp\" \"$1\"",
    "( sleep 600 < /dev/null > /dev/null 2>&1 & echo $! > \"$2.tmp\"; mv \"$2.tmp\" \"$2\" ) &",
    "exec sleep 600"
  };

  @TempDir Path dir;

  /** The cgroup mechanisms usable here; the tests are skipped (aborted) where there is none. */
  static Stream<Enclosure> cgroups() {
    List<Enclosure> usable = ContainmentTest.cgroups().toList();
    assumeTrue(!usable.isEmpty(), "no writable cgroup");
    return usable.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cgroups")
  void atEndOfFileTheKeeperKillsEveryMemberAndRemovesTheCgroup(Enclosure mechanism)
      throws Exception {
    CallCgroup cgroup = mechanism.open(64).orElseThrow();
    List<Path> directories = cgroup.directories();
    Path script = writeScript(dir.resolve("worker"), WORKER);
    List<String> command =
        List.of(script.toString(), dir.resolve("pid").toString(), dir.resolve("hop").toString());
    ProcessBuilder builder = new ProcessBuilder(cgroup.command(command, ENV));
    builder.environment().clear();
    builder.environment().putAll(cgroup.processEnvironment(ENV));
    Keeper keeper = Keeper.start(cgroup, LaunchSupport.findTool("setsid").orElseThrow());
    Process worker = cgroup.start(builder);
    try {
      long pid = awaitPid(dir.resolve("pid"));
      long hop = awaitPid(dir.resolve("hop"));
      assertThat(ProcessHandle.of(hop).flatMap(ProcessHandle::parent).map(ProcessHandle::pid))
          .as("the hopper left its parent")
          .isNotEqualTo(Optional.of(pid));
      assertThat(CallCgroup.readIds(cgroup.procs())).contains(pid, hop);
      assertThat(inSession(keeper.pid())).as("the keeper has a session of its own").isTrue();

      long closed = System.nanoTime();
      keeper.release(SAFETY); // what the host's death does: the keeper's pipe ends

      assertThat(ProcessHandle.of(keeper.pid()).map(ProcessHandle::isAlive))
          .isNotEqualTo(Optional.of(true));
      assertThat(eventually(() -> gone(pid) && gone(hop))).as("worker or hopper alive").isTrue();
      for (Path d : directories) {
        assertThat(d).as("cgroup directory left").doesNotExist();
      }
      assertThat(Duration.ofNanos(System.nanoTime() - closed)).isLessThan(Duration.ofSeconds(2));
      assertThat(worker.waitFor(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
    } finally {
      worker.destroyForcibly();
      cgroup.terminate(worker, Duration.ZERO, true);
      cgroup.remove();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cgroups")
  void aRetiredWorkersKeeperExitsAndLeavesNothing(Enclosure mechanism) throws Exception {
    OsProcessLauncher launcher =
        OsProcessLauncher.builder()
            .terminationGrace(Duration.ofMillis(300))
            .enclosure(mechanism)
            .build();
    Path script = writeScript(dir.resolve("worker"), WORKER);
    LaunchRequest request =
        LaunchRequestBuilder.of(
                List.of(
                    script.toString(),
                    dir.resolve("pid").toString(),
                    dir.resolve("hop").toString()))
            .environment(ENV)
            .build();
    LongLivedProcess.Start start = launcher.startLongLived(request);
    assertThat(start).isInstanceOf(LongLivedProcess.Start.Running.class);
    LongLivedProcess worker = ((LongLivedProcess.Start.Running) start).process();
    long keeper = worker.keeperPid().orElseThrow();
    long pid = awaitPid(dir.resolve("pid"));
    long hop = awaitPid(dir.resolve("hop"));
    List<Path> directories = cgroupsOf(pid);
    assertThat(directories).isNotEmpty();
    assertThat(ProcessGroup.readStat(Path.of("/proc", Long.toString(keeper)))).isPresent();
    assertThat(cgroupsOf(keeper))
        .as("the keeper stands outside the worker's cgroup")
        .doesNotContainAnyElementsOf(directories);

    worker.stop(Duration.ZERO);

    assertThat(worker.terminated()).isTrue();
    assertThat(gone(keeper)).as("the keeper outlived its worker").isTrue();
    assertThat(gone(pid)).isTrue();
    assertThat(gone(hop)).isTrue();
    for (Path d : directories) {
      assertThat(d).doesNotExist();
    }
  }

  @Test
  void theKeeperNeverSignalsTheHostsPid() throws Exception {
    // Only cgroup v1 can hold a thread of the host (around a start); v2's trampoline joins itself.
    Optional<Enclosure> v1 =
        ContainmentTest.cgroups().filter(e -> e instanceof Enclosure.CgroupV1).findFirst();
    assumeTrue(v1.isPresent(), "no writable cgroup v1 freezer and pids hierarchies");
    CallCgroup cgroup = v1.get().open(64).orElseThrow();
    // A stand-in for the host, and another member, both inside the cgroup.
    Process host = new ProcessBuilder("sleep", "600").start();
    Process member = new ProcessBuilder("sleep", "600").start();
    try {
      for (Path d : cgroup.directories()) {
        CallCgroup.write(d.resolve("cgroup.procs"), Long.toString(host.pid()));
        CallCgroup.write(d.resolve("cgroup.procs"), Long.toString(member.pid()));
      }
      Keeper keeper =
          Keeper.start(cgroup, LaunchSupport.findTool("setsid").orElseThrow(), host.pid());

      keeper.release(Duration.ZERO);

      assertThat(member.waitFor(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(member.exitValue()).isEqualTo(128 + 9);
      // The keeper gives up on the cgroup the host is in (about 5 s), the host untouched.
      assertThat(eventually(() -> gone(keeper.pid()))).isTrue();
      assertThat(host.isAlive()).isTrue();
      assertThat(cgroup.directories().get(0)).isDirectory();
    } finally {
      host.destroyForcibly().waitFor();
      member.destroyForcibly();
      cgroup.remove();
    }
  }

  private static boolean inSession(long pid) {
    return ProcessGroup.readStat(Path.of("/proc", Long.toString(pid)))
        .map(stat -> stat.session() == pid)
        .orElse(false);
  }

  /** The cgroup directories of {@code pid} that hold call cgroups ({@code loopx-*}). */
  private static List<Path> cgroupsOf(long pid) throws IOException {
    List<Path> found = new ArrayList<>();
    Cgroups.Placement placement = Cgroups.locate();
    for (String line :
        Files.readAllLines(
            Path.of("/proc", Long.toString(pid), "cgroup"), StandardCharsets.UTF_8)) {
      String path = line.substring(line.lastIndexOf(':') + 1);
      String leaf = path.substring(path.lastIndexOf('/') + 1);
      if (!leaf.startsWith("loopx-")) {
        continue;
      }
      for (Optional<Path> own : List.of(placement.v2(), placement.freezer(), placement.pids())) {
        own.map(o -> o.resolve(leaf)).filter(Files::isDirectory).ifPresent(found::add);
      }
    }
    return found.stream().distinct().toList();
  }

  private static long awaitPid(Path file) throws IOException {
    assertThat(eventually(() -> Files.exists(file))).as("%s never written", file).isTrue();
    return Long.parseLong(Files.readString(file).trim());
  }

  private static boolean eventually(java.util.function.BooleanSupplier condition) {
    return ProcessGroup.pollUntil(SAFETY, condition);
  }
}
