package io.loopx.runtime.internal.identity;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Optional;

/**
 * Fuzz target: for any bytes, {@link Shebang#parse} never throws, and what it returns is what the
 * kernel's binfmt_script would take from the first 256 bytes: an interpreter without blanks or NUL,
 * an argument without NUL or newline and without leading or trailing blanks, and a line that, put
 * back together, parses to the same. In the normal build Jazzer runs it in regression mode over the
 * seed inputs in {@code ShebangFuzzTestInputs/<method>/}; set {@code JAZZER_FUZZ=1} to fuzz.
 */
class ShebangFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void parseReadsTheLineLikeTheKernel(byte[] file) {
    byte[] head = Arrays.copyOf(file, Math.min(file.length, Shebang.LIMIT));
    Optional<Shebang> parsed = Shebang.parse(head, file.length);
    boolean script = file.length >= 2 && file[0] == '#' && file[1] == '!';
    assertThat(parsed.isPresent()).isEqualTo(script);
    if (parsed.isEmpty()) {
      return;
    }
    Shebang s = parsed.get();
    byte[] interpreter = s.interpreterBytes();
    byte[] argument = s.argumentBytes();
    for (byte b : interpreter) {
      assertThat(b).isNotIn((byte) ' ', (byte) '\t', (byte) 0, (byte) '\n');
    }
    for (byte b : argument) {
      assertThat(b).isNotIn((byte) 0, (byte) '\n');
    }
    if (argument.length > 0) {
      assertThat(interpreter).isNotEmpty();
      assertThat(argument[0]).isNotIn((byte) ' ', (byte) '\t');
      assertThat(argument[argument.length - 1]).isNotIn((byte) ' ', (byte) '\t');
    }
    assertThat(2 + interpreter.length + argument.length).isLessThanOrEqualTo(Shebang.LIMIT);
    int newline = indexOf(head, (byte) '\n');
    assertThat(s.complete()).isEqualTo(newline >= 0 || file.length < Shebang.LIMIT);
    if (!s.complete()) {
      return;
    }
    // Reassembled, a complete line parses to the same interpreter and argument.
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    line.writeBytes(new byte[] {'#', '!'});
    line.writeBytes(interpreter);
    if (argument.length > 0) {
      line.write(' ');
      line.writeBytes(argument);
    }
    line.write('\n');
    byte[] again = line.toByteArray();
    Shebang t = Shebang.parse(again, again.length).orElseThrow();
    assertThat(t.interpreterBytes()).isEqualTo(interpreter);
    assertThat(t.argumentBytes()).isEqualTo(argument);
    assertThat(t.complete()).isTrue();
    // Strict decoding either gives back exactly the bytes or nothing.
    s.interpreter()
        .ifPresent(
            text ->
                assertThat(text.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    .isEqualTo(interpreter));
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
