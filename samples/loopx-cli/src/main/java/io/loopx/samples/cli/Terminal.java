package io.loopx.samples.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a file descriptor of this process is a terminal, decided from the descriptor itself
 * (Linux {@code /proc/self/fd/N} links to a {@code /dev/pts/N} or {@code /dev/tty*} device), not
 * from {@code System.console()}, which looks at stdin and stdout. Elsewhere: not a terminal.
 */
final class Terminal {
  private Terminal() {}

  /** Returns whether file descriptor 2 (stderr) is a terminal. */
  static boolean isStderr() {
    return isTerminal(Path.of("/proc/self/fd/2"));
  }

  /** Returns whether the descriptor link {@code fd} points at a terminal device. */
  static boolean isTerminal(Path fd) {
    try {
      return isTerminalDevice(Files.readSymbolicLink(fd).toString());
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  /** Returns whether {@code device} names a terminal device. */
  static boolean isTerminalDevice(String device) {
    return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty");
  }
}
