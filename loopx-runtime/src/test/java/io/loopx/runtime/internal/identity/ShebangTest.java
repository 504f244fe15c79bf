package io.loopx.runtime.internal.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code #!} line read the way Linux's binfmt_script reads it. */
class ShebangTest {
  private static Optional<Shebang> parse(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return Shebang.parse(Arrays.copyOf(bytes, Math.min(bytes.length, Shebang.LIMIT)), bytes.length);
  }

  @Test
  void nonScriptsHaveNoShebang() {
    assertThat(parse("")).isEmpty();
    assertThat(parse("#")).isEmpty();
    assertThat(parse("\u007fELF")).isEmpty();
    assertThat(parse(" #!/bin/sh")).isEmpty();
  }

  /** The kernel does not split the argument: everything after the interpreter is one word. */
  @Test
  void theRestOfTheLineIsOneArgument() {
    Shebang s = parse("#! \t/usr/bin/env  -S python3\t-u \t\nrest").orElseThrow();

    assertThat(s.interpreter()).contains("/usr/bin/env");
    assertThat(s.argument()).contains("-S python3\t-u");
    assertThat(s.complete()).isTrue();
    assertThat(s.text()).isEqualTo("/usr/bin/env -S python3\t-u");
  }

  @Test
  void noArgumentAndTrailingBlanks() {
    Shebang s = parse("#!/bin/sh \t\n").orElseThrow();

    assertThat(s.interpreter()).contains("/bin/sh");
    assertThat(s.hasArgument()).isFalse();
    assertThat(s.argument()).contains("");
  }

  @Test
  void aNulEndsTheLineLikeTheKernelsCString() {
    Shebang s = parse("#!/bin/sh\u0000 -x\n").orElseThrow();

    assertThat(s.interpreter()).contains("/bin/sh");
    assertThat(s.hasArgument()).isFalse();
  }

  @Test
  void carriageReturnIsKept() {
    assertThat(parse("#!/bin/sh\r\n").orElseThrow().interpreter()).contains("/bin/sh\r");
  }

  @Test
  void theLineMustEndWithin256Bytes() {
    String fits = "#!/bin/sh " + "a".repeat(256 - 11) + "\n";
    assertThat(fits).hasSize(256);
    String over = "#!/bin/sh " + "a".repeat(256 - 10) + "\n";

    assertThat(parse(fits + "more").orElseThrow().complete()).isTrue();
    assertThat(parse(over).orElseThrow().complete()).isFalse();
    assertThat(parse("#!/bin/sh " + "a".repeat(245)).orElseThrow().complete()).isTrue();
    assertThat(parse("#!/bin/sh " + "a".repeat(246)).orElseThrow().complete()).isFalse();
  }

  @Test
  void invalidUtf8IsNotReplaced() {
    byte[] head = {'#', '!', '/', 'x', (byte) 0xFF, ' ', (byte) 0xC3, '\n'};
    Shebang s = Shebang.parse(head, head.length).orElseThrow();

    assertThat(s.interpreter()).isEmpty();
    assertThat(s.interpreterBytes()).containsExactly('/', 'x', (byte) 0xFF);
    assertThat(s.argument()).isEmpty();
    assertThat(s.argumentBytes()).containsExactly((byte) 0xC3);
  }

  @Test
  void emptyShebangHasNoInterpreter() {
    assertThat(parse("#!\n").orElseThrow().interpreterEmpty()).isTrue();
    assertThat(parse("#!   ").orElseThrow().interpreterEmpty()).isTrue();
  }
}
