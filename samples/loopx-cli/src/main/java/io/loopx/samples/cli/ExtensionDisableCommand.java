package io.loopx.samples.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code loopx extension disable ID}. */
@Command(
    name = "disable",
    mixinStandardHelpOptions = true,
    description = "Disable an extension (history and proofs are kept).")
final class ExtensionDisableCommand extends SessionCommand {
  @Parameters(paramLabel = "ID", description = "The extension id.")
  String id = "";

  ExtensionDisableCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    return Views.receipt(
        session.loopx(settings).disable(Arguments.extensionId(id), settings.mode()));
  }
}
