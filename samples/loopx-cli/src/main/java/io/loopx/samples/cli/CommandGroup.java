package io.loopx.samples.cli;

import picocli.CommandLine.Mixin;

/**
 * A command that only groups subcommands ({@code loopx}, {@code extension}, {@code capability}). It
 * is not executable, so naming it without a subcommand is a usage error. It accepts the global
 * options, which then apply to the subcommand that runs.
 */
class CommandGroup implements GlobalOptions.Holder {
  @Mixin GlobalOptions options = new GlobalOptions();

  @Override
  public GlobalOptions globalOptions() {
    return options;
  }
}
