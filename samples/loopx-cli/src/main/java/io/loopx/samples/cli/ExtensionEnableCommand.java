package io.loopx.samples.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code loopx extension enable ID}. */
@Command(
    name = "enable",
    mixinStandardHelpOptions = true,
    description = "Enable an extension after a fresh doctor probe (with --execute).")
final class ExtensionEnableCommand extends SessionCommand {
  @Parameters(paramLabel = "ID", description = "The extension id.")
  String id = "";

  ExtensionEnableCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    return Views.receipt(
        session.loopx(settings).enable(Arguments.extensionId(id), settings.mode()));
  }
}
