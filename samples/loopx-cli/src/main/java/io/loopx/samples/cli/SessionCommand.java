package io.loopx.samples.cli;

import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Base of every executable command: merges the global options of the command chain, runs the
 * command and prints its result. A new command is one subclass plus one line in {@link
 * CommandTree}. Failures propagate as exceptions and are reported by {@link CliSession#fail}.
 */
abstract class SessionCommand implements Callable<Integer>, GlobalOptions.Holder {
  @Mixin GlobalOptions options = new GlobalOptions();

  @Spec CommandSpec spec = CommandSpec.create();

  /** The run this command belongs to. */
  final CliSession session;

  SessionCommand(CliSession session) {
    this.session = Objects.requireNonNull(session, "session");
  }

  @Override
  public GlobalOptions globalOptions() {
    return options;
  }

  /** Runs the command with the merged settings and prints its result; returns the exit code. */
  @Override
  public final Integer call() {
    return session.emit(run(session.settings(spec)));
  }

  /** Runs the command; throws a {@link io.loopx.api.LoopxException} on failure. */
  abstract CommandOutput run(Settings settings);
}
