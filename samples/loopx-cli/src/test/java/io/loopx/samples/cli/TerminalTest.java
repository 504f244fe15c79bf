package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deciding "stderr is a terminal" from the descriptor link (the real terminal: CliProgressIT). */
class TerminalTest {
  @TempDir Path tmp;

  @Test
  void terminalDevicesAreRecognisedAndEverythingElseIsNot() {
    assertThat(Terminal.isTerminalDevice("/dev/pts/3")).isTrue();
    assertThat(Terminal.isTerminalDevice("/dev/tty1")).isTrue();
    assertThat(Terminal.isTerminalDevice("/dev/null")).isFalse();
    assertThat(Terminal.isTerminalDevice("pipe:[4242]")).isFalse();
    assertThat(Terminal.isTerminalDevice("/tmp/err.txt")).isFalse();
  }

  @Test
  void aLinkIsFollowedOnceAndAMissingOneIsNoTerminal() throws IOException {
    Path pts = Files.createSymbolicLink(tmp.resolve("2"), Path.of("/dev/pts/7"));
    Path file = Files.createSymbolicLink(tmp.resolve("1"), tmp.resolve("out.txt"));

    assertThat(Terminal.isTerminal(pts)).isTrue();
    assertThat(Terminal.isTerminal(file)).isFalse();
    assertThat(Terminal.isTerminal(tmp.resolve("missing"))).isFalse();
    // Surefire redirects this JVM's stderr: never a terminal here.
    assertThat(Terminal.isStderr()).isFalse();
  }
}
