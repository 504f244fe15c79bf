package io.loopx.samples.cli;

import io.loopx.runtime.Loopx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code loopx extension install (--manifest PATH | --bundled ID)}. */
@Command(
    name = "install",
    mixinStandardHelpOptions = true,
    description =
        "Install a new extension: validate, probe its doctor (with --execute), enable it.")
final class ExtensionInstallCommand extends SessionCommand {
  @Mixin ManifestChoice source = new ManifestChoice();

  ExtensionInstallCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    Loopx loopx = session.loopx(settings);
    return Views.receipt(loopx.install(source.load(loopx), settings.mode()));
  }
}
