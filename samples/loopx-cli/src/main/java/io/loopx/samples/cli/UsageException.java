package io.loopx.samples.cli;

/**
 * A command-line usage error of the sample CLI (error kind {@code usage}, exit code 2). The kind
 * belongs to the CLI, not to the library: a host without a command line has no usage errors.
 */
final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The error kind the CLI reports for usage errors. */
  static final String KIND = "usage";

  UsageException(String message) {
    super(message);
  }
}
