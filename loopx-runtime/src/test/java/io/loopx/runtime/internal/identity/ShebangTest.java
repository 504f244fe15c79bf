package io.loopx.runtime.internal.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ShebangTest {
  private static Optional<Shebang> parse(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return Shebang.parse(bytes, bytes.length);
  }

  @Test
  void nonScriptsHaveNoShebang() {
    assertThat(parse("")).isEmpty();
    assertThat(parse("#")).isEmpty();
    assertThat(parse("\u007fELF")).isEmpty();
    assertThat(parse(" #!/bin/sh")).isEmpty();
  }

  @Test
  void interpreterAndArgumentsAreSplitOnBlanks() {
    Shebang s = parse("#! \t/usr/bin/env  -S python3\t-u\nrest").orElseThrow();

    assertThat(s.interpreter()).isEqualTo("/usr/bin/env");
    assertThat(s.arguments()).containsExactly("-S", "python3", "-u");
    assertThat(s.complete()).isTrue();
    assertThat(s.envProgram()).contains("python3");
  }

  @Test
  void envProgramSkipsOptionsAndAssignments() {
    assertThat(parse("#!/usr/bin/env -i A=1 B=2 node --x\n").orElseThrow().envProgram())
        .contains("node");
    assertThat(parse("#!/usr/bin/env -i A=1\n").orElseThrow().envProgram()).isEmpty();
  }

  @Test
  void lineLongerThanTheBoundedReadIsIncomplete() {
    byte[] file = ("#!/bin/sh " + "a".repeat(400) + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] head = java.util.Arrays.copyOf(file, Shebang.LIMIT);

    assertThat(Shebang.parse(head, file.length).orElseThrow().complete()).isFalse();
    assertThat(Shebang.parse(head, head.length).orElseThrow().complete()).isTrue();
  }

  @Test
  void emptyShebangHasAnEmptyInterpreter() {
    assertThat(parse("#!\n").orElseThrow().interpreter()).isEmpty();
    assertThat(parse("#!   ").orElseThrow().interpreter()).isEmpty();
  }
}
