package io.loopx.runtime.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
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
}
