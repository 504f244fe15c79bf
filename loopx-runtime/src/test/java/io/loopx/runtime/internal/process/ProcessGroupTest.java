package io.loopx.runtime.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

class ProcessGroupTest {

  @Test
  void statFieldsAreReadAfterTheLastParenthesisOfTheCommandName() {
    String line = "4242 (we (ird) na me) S 1 777 888 0 -1 4194560 120 0 0 0 0 0 0 0 20 0 1 0";

    ProcessGroup.Stat stat = ProcessGroup.parseStat(line).orElseThrow();

    assertThat(stat.state()).isEqualTo('S');
    assertThat(stat.group()).isEqualTo(777);
    assertThat(stat.session()).isEqualTo(888);
    assertThat(stat.live()).isTrue();
  }

  @Test
  void zombiesAndDeadProcessesAreNotLive() {
    assertThat(ProcessGroup.parseStat("1 (a) Z 1 2 3 0").orElseThrow().live()).isFalse();
    assertThat(ProcessGroup.parseStat("1 (a) X 1 2 3 0").orElseThrow().live()).isFalse();
  }

  @Test
  void garbageDoesNotParse() {
    assertThat(ProcessGroup.parseStat("")).isEmpty();
    assertThat(ProcessGroup.parseStat("1 (a)")).isEmpty();
    assertThat(ProcessGroup.parseStat("1 (a) S 1 x 3")).isEmpty();
    assertThat(ProcessGroup.parseStat("1 (a) SS 1 2 3")).isEmpty();
  }

  @Test
  void theJvmIsAMemberOfItsOwnGroupAndAVanishedProcessHasNoStat() {
    ProcessGroup.Stat self = ProcessGroup.readStat(Path.of("/proc/self")).orElseThrow();

    assertThat(ProcessGroup.members(self.group()).orElseThrow())
        .extracting(ProcessGroup.Member::pid)
        .contains(ProcessHandle.current().pid());
    assertThat(ProcessGroup.readStat(Path.of("/proc/not-a-process"))).isEmpty();
  }

  @Test
  void theWindowHoldsThePidsAllocatedAfterTheLeaderAcrossTheWrap() {
    LongPredicate plain = ProcessGroup.allocatedSince(100, 105, 32768, 0);
    assertThat(plain.test(101)).isTrue();
    assertThat(plain.test(105)).isTrue();
    assertThat(plain.test(100)).as("the leader itself").isFalse();
    assertThat(plain.test(106)).isFalse();
    assertThat(plain.test(50)).isFalse();

    LongPredicate wrapped = ProcessGroup.allocatedSince(32760, 310, 32768, 0);
    assertThat(wrapped.test(32767)).isTrue();
    assertThat(wrapped.test(300)).isTrue();
    assertThat(wrapped.test(310)).isTrue();
    assertThat(wrapped.test(311)).isFalse();
    assertThat(wrapped.test(32760)).isFalse();

    assertThat(ProcessGroup.allocatedSince(100, 100, 32768, 0).test(101))
        .as("nothing allocated since the leader")
        .isFalse();
  }

  @Test
  void everyPidIsACandidateWhenTheWindowCannotBeTrusted() {
    long tooLong = TimeUnit.MICROSECONDS.toNanos(32768);
    assertThat(ProcessGroup.allocatedSince(100, 105, 32768, tooLong).test(50)).isTrue();
    assertThat(ProcessGroup.allocatedSince(100, -1, 32768, 0).test(50)).as("no counter").isTrue();
    assertThat(ProcessGroup.allocatedSince(100, 105, -1, 0).test(50)).as("no pid_max").isTrue();
    assertThat(ProcessGroup.allocatedSince(100, 40000, 32768, 0).test(50)).isTrue();
  }

  @Test
  void anyPidAllocatedAfterTheLeaderBeforeAFullWrapIsInTheWindow() {
    // Linux allocates pids cyclically from 300 (RESERVED_PIDS) up to pid_max - 1.
    qt().forAll(
            integers().between(1000, 4_194_304),
            integers().between(0, Integer.MAX_VALUE),
            integers().between(0, Integer.MAX_VALUE),
            integers().between(0, Integer.MAX_VALUE))
        .check(
            (max, leaderSeed, allocatedSeed, nthSeed) -> {
              long leader = 300 + leaderSeed % (max - 300);
              long allocated = 1 + allocatedSeed % (max - 301);
              long nth = 1 + nthSeed % allocated;
              long last = nthAfter(leader, allocated, max);
              LongPredicate window = ProcessGroup.allocatedSince(leader, last, max, 0);
              return window.test(nthAfter(leader, nth, max))
                  && !window.test(leader)
                  && (allocated + 1 >= max - 300
                      || !window.test(nthAfter(leader, allocated + 1, max)));
            });
  }

  private static long nthAfter(long pid, long n, long max) {
    return 300 + Math.floorMod(pid - 300 + n, max - 300);
  }

  @Test
  void theKernelCountersAreReadWhole() {
    // A reader that fetches one byte first gets "3" for a pid_max of 32768: /proc/sys files
    // answer only a first read at offset 0.
    long max = ProcessGroup.readNumber(Path.of("/proc/sys/kernel/pid_max")).orElseThrow();
    long last = ProcessGroup.readNumber(Path.of("/proc/sys/kernel/ns_last_pid")).orElseThrow();
    long self = ProcessHandle.current().pid();

    assertThat(max).isGreaterThan(self).isGreaterThanOrEqualTo(301);
    assertThat(last).isPositive().isLessThan(max);
    assertThat(ProcessGroup.readNumber(Path.of("/proc/not-a-process/stat"))).isEmpty();
  }
}
