package io.loopx.samples.cli;

import picocli.CommandLine.Command;

/** {@code loopx extension list}. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "List installed extensions, with doctor freshness evaluated now.")
final class ExtensionListCommand extends SessionCommand {
  ExtensionListCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    return Views.extensionList(session.loopx(settings).list());
  }
}
