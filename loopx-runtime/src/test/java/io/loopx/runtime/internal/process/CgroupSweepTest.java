package io.loopx.runtime.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sweep of dead hosts' call cgroups ({@link CgroupSweep}): the names, the dead-or-alive
 * decision (keyed by pid and start time), and a real sweep of cgroup v1 {@code freezer} + {@code
 * pids} directories with a live member, next to cgroups of live owners that must stay. The real
 * sweep runs in test-owned parent cgroups, so it never meets another JVM's call cgroups; it is
 * skipped where no cgroup v1 hierarchy is writable.
 */
class CgroupSweepTest {
  private static final Duration SAFETY = Duration.ofSeconds(15);

  private final List<Process> started = new ArrayList<>();
  private final List<Path> parents = new ArrayList<>();

  @AfterEach
  void cleanUp() {
    for (Process p : started) {
      p.destroyForcibly();
    }
    for (Path parent : parents) {
      try (var entries = Files.newDirectoryStream(parent)) {
        for (Path dir : entries) {
          if (Files.isDirectory(dir)) {
            CgroupSweep.empty(dir);
          }
        }
      } catch (IOException e) {
        // Gone already.
      }
      CgroupSweep.empty(parent);
    }
  }

  // ------------------------------------------------------------------ names

  @Test
  void ownNamesCarryThePidAndTheStartTime() {
    Optional<CgroupSweep.Owner> owner = CgroupSweep.parse(CallCgroup.name("7"));
    assertThat(owner).isPresent();
    assertThat(owner.get().pid()).isEqualTo(ProcessHandle.current().pid());
    assertThat(CgroupSweep.SELF_START).isPresent();
    assertThat(owner.get().start()).isEqualTo(CgroupSweep.SELF_START);
    assertThat(CgroupSweep.parse(CallCgroup.name("probe"))).isEqualTo(owner);
  }

  @Test
  void oldNamesAreRecognisedAndOtherNamesAreNot() {
    assertThat(CgroupSweep.parse("loopx-123-4"))
        .contains(new CgroupSweep.Owner(123, OptionalLong.empty()));
    assertThat(CgroupSweep.parse("loopx-123-probe"))
        .contains(new CgroupSweep.Owner(123, OptionalLong.empty()));
    assertThat(CgroupSweep.parse("loopx-123-456-7"))
        .contains(new CgroupSweep.Owner(123, OptionalLong.of(456)));
    for (String other :
        List.of(
            "loopx-",
            "loopx-123",
            "loopx-0-5",
            "loopx--5",
            "loopx-a-5",
            "loopx-123-x",
            "loopx-123-456-7-8",
            "loopx-123-45a-7",
            "loopx-123-456-",
            "loopx-99999999999999999999-1",
            "loopx-test-1-2",
            "user.slice",
            "loopx_1_2")) {
      assertThat(CgroupSweep.parse(other)).as(other).isEmpty();
    }
  }

  @Test
  void everyNameRoundTrips() {
    qt().forAll(
            longs().between(1, Long.MAX_VALUE),
            longs().between(0, Long.MAX_VALUE),
            integers().allPositive())
        .checkAssert(
            (pid, start, n) ->
                assertThat(CgroupSweep.parse("loopx-" + pid + "-" + start + "-" + n))
                    .contains(new CgroupSweep.Owner(pid, OptionalLong.of(start))));
  }

  // ------------------------------------------------------------------ dead or alive

  @Test
  void aLiveOwnerIsNeverDeadAndAReusedPidNeverLooksAlive() {
    qt().forAll(
            longs().between(1, 4_194_304),
            longs().between(0, Long.MAX_VALUE / 2),
            longs().between(0, Long.MAX_VALUE / 2))
        .checkAssert(
            (pid, named, actual) -> {
              CgroupSweep.Owner owner = new CgroupSweep.Owner(pid, OptionalLong.of(named));
              // The process with that pid and that start time is the owner: alive.
              assertThat(
                      CgroupSweep.dead(owner, Optional.of(new CgroupSweep.Running(named, false))))
                  .isFalse();
              // Another process under the same pid (started at another time): the owner is dead.
              assertThat(
                      CgroupSweep.dead(owner, Optional.of(new CgroupSweep.Running(actual, false))))
                  .isEqualTo(!named.equals(actual));
              // No process, or a zombie: dead.
              assertThat(CgroupSweep.dead(owner, Optional.empty())).isTrue();
              assertThat(CgroupSweep.dead(owner, Optional.of(new CgroupSweep.Running(named, true))))
                  .isTrue();
              // An old name: dead only when nothing (or a zombie) runs under the pid.
              CgroupSweep.Owner old = new CgroupSweep.Owner(pid, OptionalLong.empty());
              assertThat(CgroupSweep.dead(old, Optional.of(new CgroupSweep.Running(actual, false))))
                  .isFalse();
              assertThat(CgroupSweep.dead(old, Optional.empty())).isTrue();
            });
  }

  @Test
  void thisJvmIsAliveUnderItsOwnName() {
    CgroupSweep.Owner self = CgroupSweep.parse(CallCgroup.name("1")).orElseThrow();
    assertThat(CgroupSweep.dead(self, CgroupSweep.running(self.pid()))).isFalse();
  }

  // ------------------------------------------------------------------ a real sweep

  @Test
  void theSweepEmptiesAndRemovesDeadHostsCgroupsAndLeavesLiveOnesAlone() throws Exception {
    Cgroups.Placement placement = Cgroups.locate();
    assumeTrue(
        placement.freezer().isPresent() && placement.pids().isPresent(),
        "no cgroup v1 freezer and pids hierarchies");
    assumeTrue(
        Cgroups.probeV1(placement.freezer().get(), placement.pids().get()).isPresent(),
        "the cgroup v1 freezer and pids hierarchies are not writable");
    String parentName = "loopxtest-" + CgroupSweep.SELF + "-" + System.nanoTime();
    Path freezer = Files.createDirectory(placement.freezer().get().resolve(parentName));
    parents.add(freezer);
    Path pids = Files.createDirectory(placement.pids().get().resolve(parentName));
    parents.add(pids);

    // A dead host: a process that ran and was reaped; its pid is free now.
    Process ended = new ProcessBuilder("true").start();
    long endedStart = CgroupSweep.startTime(ended.pid()).orElse(1L);
    assertThat(ended.waitFor(30, TimeUnit.SECONDS)).isTrue();
    long deadPid = ended.pid();
    assumeTrue(CgroupSweep.running(deadPid).isEmpty(), "the pid was reused at once");
    // A live process: its exact name is a live host's; with another start time it is a dead host
    // whose pid was reused.
    Process live = start("sleep", "600");
    long liveStart = CgroupSweep.startTime(live.pid()).orElseThrow();

    String deadNew = "loopx-" + deadPid + "-" + endedStart + "-1";
    String reused = "loopx-" + live.pid() + "-" + (liveStart + 1) + "-1";
    String liveNew = "loopx-" + live.pid() + "-" + liveStart + "-1";
    String deadOld = "loopx-" + deadPid + "-2";
    String liveOld = "loopx-" + live.pid() + "-2";
    String own = CallCgroup.name("1");
    for (String name : List.of(deadNew, reused, liveNew, deadOld, liveOld, own)) {
      Files.createDirectory(freezer.resolve(name));
      Files.createDirectory(pids.resolve(name));
    }
    // Members: a tree in the dead host's cgroup, one in the reused pid's, one in the live host's.
    Process inDead = member(freezer.resolve(deadNew), pids.resolve(deadNew));
    Process inReused = member(freezer.resolve(reused), pids.resolve(reused));
    Process inLive = member(freezer.resolve(liveNew), pids.resolve(liveNew));

    List<Path> removed = CgroupSweep.sweep(List.of(freezer, pids));

    assertThat(removed)
        .containsExactlyInAnyOrder(
            freezer.resolve(deadNew),
            pids.resolve(deadNew),
            freezer.resolve(reused),
            pids.resolve(reused),
            freezer.resolve(deadOld),
            pids.resolve(deadOld));
    for (String name : List.of(deadNew, reused, deadOld)) {
      assertThat(freezer.resolve(name)).doesNotExist();
      assertThat(pids.resolve(name)).doesNotExist();
    }
    assertThat(inDead.waitFor(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(inReused.waitFor(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
    for (String name : List.of(liveNew, liveOld, own)) {
      assertThat(freezer.resolve(name)).isDirectory();
      assertThat(pids.resolve(name)).isDirectory();
    }
    assertThat(inLive.isAlive()).isTrue();
    assertThat(live.isAlive()).isTrue();
    assertThat(CallCgroup.readIds(freezer.resolve(liveNew).resolve("cgroup.procs")))
        .containsExactly(inLive.pid());
  }

  /** Starts {@code sleep 600} and moves it into the two cgroups {@code dirs}. */
  private Process member(Path... dirs) throws IOException {
    Process p = start("sleep", "600");
    for (Path dir : dirs) {
      CallCgroup.write(dir.resolve("cgroup.procs"), Long.toString(p.pid()));
    }
    return p;
  }

  private Process start(String... command) throws IOException {
    Process p = new ProcessBuilder(command).start();
    started.add(p);
    return p;
  }
}
