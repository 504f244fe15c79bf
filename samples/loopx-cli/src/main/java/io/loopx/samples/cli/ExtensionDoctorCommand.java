package io.loopx.samples.cli;

import io.loopx.runtime.Loopx;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code loopx extension doctor (ID | --all-enabled)}. */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    description = {
      "Check an extension's runtime (probe it with --execute).",
      "Exit 0 whatever the status of one extension; with --all-enabled, exit 1 when any is blocked."
    })
final class ExtensionDoctorCommand extends SessionCommand {
  @Parameters(arity = "0..1", paramLabel = "ID", description = "The extension id.")
  @Nullable String id;

  @Option(names = "--all-enabled", description = "Check every enabled extension.")
  boolean allEnabled;

  ExtensionDoctorCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    String given = id;
    if ((given == null) == !allEnabled) {
      throw Arguments.usage("specify exactly one of ID or --all-enabled");
    }
    Loopx loopx = session.loopx(settings);
    if (given == null) {
      return Views.doctorBatch(loopx.doctorAll(settings.mode()));
    }
    return Views.receipt(loopx.doctor(Arguments.extensionId(given), settings.mode()));
  }
}
