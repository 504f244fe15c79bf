package io.loopx.samples.cli;

import io.loopx.scaffold.Scaffold;
import io.loopx.scaffold.StarterLanguage;
import java.nio.file.Path;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loopx extension init ID [--destination DIR] [--version X.Y.Z] [--language java|python]}:
 * previews (or, with {@code --execute}, writes) a standalone extension starter package. It installs
 * nothing. {@code --version} is the starter's version, so this command has no {@code -V/--version}
 * of its own.
 */
@Command(
    name = "init",
    description = {
      "Create a standalone extension starter package (written only with --execute).",
      "Default destination: packages/ID under the working directory; it must not exist."
    })
final class ExtensionInitCommand extends SessionCommand {
  @Parameters(index = "0", paramLabel = "ID", description = "The new extension's id.")
  String id = "";

  @Option(
      names = "--destination",
      paramLabel = "DIR",
      description = "Package directory (default: packages/ID).")
  @Nullable Path destination;

  @Option(
      names = "--version",
      paramLabel = "X.Y.Z",
      description = "The starter's version (default: " + Scaffold.DEFAULT_VERSION + ").")
  @Nullable String version;

  @Option(
      names = "--language",
      paramLabel = "LANG",
      description = "The provider's language: java (default) or python.")
  String language = StarterLanguage.JAVA.wireName();

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  boolean help;

  ExtensionInitCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    return Views.receipt(
        Scaffold.init(
            id,
            Optional.ofNullable(destination),
            Optional.ofNullable(version),
            StarterLanguage.parse(language),
            Path.of("").toAbsolutePath(),
            settings.mode()));
  }
}
