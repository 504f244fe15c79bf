package io.loopx.runtime.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.loopx.api.internal.ManifestValues;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The stderr tail: bounded, cut at a code point, unsafe characters escaped. */
class StderrTailTest {

  @Test
  void nothingWrittenIsNoTail() {
    assertThat(StderrTail.of(new byte[0])).isEmpty();
  }

  @Test
  void shortStderrIsKeptWholeWithLinesAndTabs() {
    assertThat(StderrTail.of("a\tb\nc\r\n".getBytes(StandardCharsets.UTF_8)))
        .contains("a\tb\nc\\u000D\n");
  }

  @Test
  void aCodePointCutByTheLimitIsDroppedWhole() {
    byte[] euro = "€".getBytes(StandardCharsets.UTF_8); // 3 bytes
    byte[] stderr = new byte[StderrTail.LIMIT + 1];
    // The window starts at byte 1: the last two bytes of a €, then ASCII.
    System.arraycopy(euro, 0, stderr, 0, 3);
    for (int i = 3; i < stderr.length; i++) {
      stderr[i] = 'x';
    }
    assertThat(StderrTail.of(stderr)).contains("x".repeat(StderrTail.LIMIT - 2));
  }

  @Test
  void malformedBytesBecomeReplacementCharacters() {
    assertThat(StderrTail.of(new byte[] {'a', (byte) 0xFF, 'b'})).contains("a\uFFFDb");
  }

  @Test
  void bidiAndSeparatorsAreEscaped() {
    assertThat(StderrTail.of("\u202Eevil\u2028\u0085".getBytes(StandardCharsets.UTF_8)))
        .contains("\\u202Eevil\\u2028\\u0085");
  }

  /**
   * For any stderr: unescaped, the tail is the decoding of a suffix of the last {@value
   * StderrTail#LIMIT} bytes that starts at most three bytes in, and no unsafe character but line
   * feed and tab survives. (Backslashes are left out of the input so that unescaping is exact.)
   */
  @Test
  void anyStderrGivesABoundedSafeTail() {
    qt().withExamples(300)
        .forAll(lists().of(integers().between(0, 255)).ofSizeBetween(1, 9000))
        .checkAssert(
            values -> {
              byte[] bytes = new byte[values.size()];
              for (int i = 0; i < bytes.length; i++) {
                int v = values.get(i);
                bytes[i] = (byte) (v == '\\' ? '/' : v);
              }
              String tail = StderrTail.of(bytes).orElseThrow();
              tail.codePoints()
                  .forEach(
                      c ->
                          assertThat(c == '\n' || c == '\t' || !ManifestValues.isUnsafeCharacter(c))
                              .isTrue());
              String unescaped = unescape(tail);
              int start = Math.max(0, bytes.length - StderrTail.LIMIT);
              boolean matched = false;
              for (int skip = 0; skip <= 3 && start + skip <= bytes.length; skip++) {
                String decoded =
                    new String(
                        bytes, start + skip, bytes.length - start - skip, StandardCharsets.UTF_8);
                matched |= decoded.equals(unescaped);
              }
              assertThat(matched).as("the tail decodes a suffix of the last bytes").isTrue();
            });
  }

  private static String unescape(String tail) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < tail.length(); i++) {
      if (tail.startsWith("\\u", i)) {
        out.append((char) Integer.parseInt(tail.substring(i + 2, i + 6), 16));
        i += 5;
      } else {
        out.append(tail.charAt(i));
      }
    }
    return out.toString();
  }
}
