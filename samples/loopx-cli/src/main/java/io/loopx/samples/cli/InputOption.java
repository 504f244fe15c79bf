package io.loopx.samples.cli;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The required {@code --input-json (PATH | -)} of {@code extension run} and {@code
 * semantic-preference recall}: the caller's request, from a file or ({@code -}) from stdin. The
 * command hands the opened stream to the library, which reads and validates it before anything else
 * (docs/contract/run.md: at most 1,000,000 bytes, checked while reading).
 */
final class InputOption {
  /** The value that selects stdin. */
  static final String STDIN = "-";

  @Option(
      names = "--input-json",
      required = true,
      paramLabel = "PATH|-",
      description =
          "The request: one JSON object, from a file or (-) from stdin; at most 1000000 bytes.")
  String inputJson = "";

  /**
   * Opens the request: stdin (not closed by closing the returned stream) or the file. Opening does
   * not follow any rule about the file's type: a pipe such as {@code /dev/stdin} or a process
   * substitution works.
   *
   * @throws LoopxException {@code usage} for a path the file system cannot represent; {@code
   *     request_invalid} (``request must be a readable JSON object``) when the file cannot be
   *     opened
   */
  InputStream open(CliSession session) {
    if (inputJson.equals(STDIN)) {
      return new FilterInputStream(session.in()) {
        @Override
        public void close() {
          // stdin belongs to the process, not to this command
        }
      };
    }
    Path file = Arguments.path(inputJson);
    try {
      return Files.newInputStream(file);
    } catch (IOException e) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "request must be a readable JSON object: cannot read `" + inputJson + "`: " + reason(e),
          e);
    }
  }

  private static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : message;
  }
}
