package io.loopx.samples.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * The options every command accepts, wherever they appear after {@code loopx}: each command of the
 * chain ({@code loopx}, {@code extension}, {@code install}, ...) carries its own instance of this
 * mixin, and {@link Settings#of} merges them (a value given deeper in the chain wins).
 */
final class GlobalOptions {
  @Option(
      names = "--runtime-root",
      paramLabel = "DIR",
      description = "Runtime root; state at DIR/extensions/state.json (default: ~/.loopx).")
  @Nullable Path runtimeRoot;

  @Option(
      names = "--state-file",
      paramLabel = "FILE",
      description = "State file (overrides --runtime-root); lock at FILE.lock.")
  @Nullable Path stateFile;

  @Option(
      names = "--state-jdbc-url",
      paramLabel = "URL",
      description =
          "Keep the activation state in PostgreSQL at this JDBC URL (default: the"
              + " LOOPX_STATE_JDBC_URL variable, else the state file); password from"
              + " LOOPX_STATE_JDBC_PASSWORD.")
  @Nullable String stateJdbcUrl;

  @Option(
      names = "--provider-env",
      paramLabel = "NAME",
      description =
          "Also hand the environment variable NAME to providers (repeatable); they get only"
              + " PATH, HOME, LANG, LC_*, TZ, TMPDIR and the names given, never LOOPX_STATE_*.")
  List<String> providerEnv = new ArrayList<>();

  @Option(
      names = "--provider-path",
      paramLabel = "DIRS",
      description =
          "The PATH providers get and their runtimes are resolved on (colon-separated"
              + " directories; default: the CLI's PATH), e.g. one whose python3 is a binary, not"
              + " a version manager's shim.")
  @Nullable String providerPath;

  @Option(
      names = "--access-root",
      paramLabel = "NAME=DIR",
      description =
          "Map the access root NAME (lower-kebab) to the directory DIR (repeatable): an extension"
              + " whose runtime.access declares read:NAME or write:NAME gets it where providers run"
              + " isolated.")
  List<String> accessRoots = new ArrayList<>();

  @Option(names = "--execute", description = "Perform the command (default: preview only).")
  boolean execute;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      converter = Format.Converter.class,
      description = "Output format: text (default) or json (exactly one JSON object).")
  @Nullable Format format;

  /** Implemented by every command object, so {@link Settings#of} can walk the command chain. */
  interface Holder {
    /** Returns this command's instance of the global options. */
    GlobalOptions globalOptions();
  }
}
