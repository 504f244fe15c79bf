package io.loopx.samples.cli;

import io.loopx.runtime.Loopx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code loopx extension upgrade (--manifest PATH | --bundled ID)}. */
@Command(
    name = "upgrade",
    mixinStandardHelpOptions = true,
    description =
        "Upgrade an installed extension to a new revision after probing it (with --execute).")
final class ExtensionUpgradeCommand extends SessionCommand {
  @Mixin ManifestChoice source = new ManifestChoice();

  ExtensionUpgradeCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    Loopx loopx = session.loopx(settings);
    return Views.receipt(loopx.upgrade(source.load(loopx), settings.mode()));
  }
}
