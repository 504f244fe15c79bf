package io.loopx.samples.cli;

import io.loopx.runtime.Loopx;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command tree of {@code loopx}. Adding a command is one {@link SessionCommand} subclass and
 * one {@code addSubcommand} line here.
 */
final class CommandTree {
  private CommandTree() {}

  /** The root command {@code loopx}. */
  @Command(
      name = "loopx",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description =
          "Sample LoopX host: extension lifecycle, managed runs, capability catalog and recall.",
      footer = {
        "",
        "Commands preview unless --execute is given. Exit codes: 0 success, 1 the result says"
            + " ok:false, 2 any error."
      })
  static final class Root extends CommandGroup {}

  /** The group {@code loopx extension}. */
  @Command(
      name = "extension",
      mixinStandardHelpOptions = true,
      description =
          "Install, upgrade, check, enable, disable, roll back, uninstall, list and run"
              + " extensions.")
  static final class Extension extends CommandGroup {}

  /** The group {@code loopx capability}. */
  @Command(
      name = "capability",
      mixinStandardHelpOptions = true,
      description = "Read the capability catalog.")
  static final class Capability extends CommandGroup {}

  /** The group {@code loopx semantic-preference}: the sample host's capability command. */
  @Command(
      name = "semantic-preference",
      mixinStandardHelpOptions = true,
      description = "Use the semantic-preference capability through its installed provider.")
  static final class SemanticPreference extends CommandGroup {}

  /** The group {@code loopx state}: the PostgreSQL activation state. */
  @Command(
      name = "state",
      mixinStandardHelpOptions = true,
      description = "Migrate the PostgreSQL activation state, or import a state.json into it.")
  static final class State extends CommandGroup {}

  /** Reports the library version. */
  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"loopx (LoopX " + Loopx.VERSION + ")"};
    }
  }

  /** Builds the tree for one run; every command object belongs to {@code session}. */
  static CommandLine build(CliSession session) {
    CommandLine extension =
        new CommandLine(new Extension())
            .addSubcommand(new ExtensionInstallCommand(session))
            .addSubcommand(new ExtensionUpgradeCommand(session))
            .addSubcommand(new ExtensionListCommand(session))
            .addSubcommand(new ExtensionDoctorCommand(session))
            .addSubcommand(new ExtensionEnableCommand(session))
            .addSubcommand(new ExtensionDisableCommand(session))
            .addSubcommand(new ExtensionRollbackCommand(session))
            .addSubcommand(new ExtensionUninstallCommand(session))
            .addSubcommand(new ExtensionRunCommand(session))
            .addSubcommand(new ExtensionVerifyCommand(session))
            .addSubcommand(new ExtensionInitCommand(session));
    CommandLine capability =
        new CommandLine(new Capability())
            .addSubcommand(new CapabilityListCommand(session))
            .addSubcommand(new CapabilityShowCommand(session));
    CommandLine semanticPreference =
        new CommandLine(new SemanticPreference())
            .addSubcommand(new SemanticPreferenceRecallCommand(session));
    CommandLine state =
        new CommandLine(new State())
            .addSubcommand(new StateMigrateCommand(session))
            .addSubcommand(new StateImportCommand(session));
    return new CommandLine(new Root())
        .addSubcommand(extension)
        .addSubcommand(capability)
        .addSubcommand(semanticPreference)
        .addSubcommand(state)
        .addSubcommand(new DemoCommand(session));
  }
}
