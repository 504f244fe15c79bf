package io.loopx.samples.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code loopx extension uninstall ID}. */
@Command(
    name = "uninstall",
    mixinStandardHelpOptions = true,
    description = "Remove a disabled extension and its revision history (disable it first).")
final class ExtensionUninstallCommand extends SessionCommand {
  @Parameters(paramLabel = "ID", description = "The extension id.")
  String id = "";

  ExtensionUninstallCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    return Views.receipt(
        session.loopx(settings).uninstall(Arguments.extensionId(id), settings.mode()));
  }
}
