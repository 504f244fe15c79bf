package io.loopx.samples.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code loopx extension rollback ID}. */
@Command(
    name = "rollback",
    mixinStandardHelpOptions = true,
    description =
        "Switch to the rollback revision after probing it (with --execute); twice toggles back.")
final class ExtensionRollbackCommand extends SessionCommand {
  @Parameters(paramLabel = "ID", description = "The extension id.")
  String id = "";

  ExtensionRollbackCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    return Views.receipt(
        session.loopx(settings).rollback(Arguments.extensionId(id), settings.mode()));
  }
}
