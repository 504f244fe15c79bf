package io.loopx.samples.cli;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.run.RunRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code loopx extension run ID --input-json (PATH | -)}: the managed run of a zero-permission
 * standalone extension (docs/contract/run.md). The request is read and validated before any state
 * is read; exit 0 when the receipt says {@code ok}, 1 when the provider failed, 2 on any error
 * (also a refused precondition).
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Run a standalone extension with one JSON request (preview unless --execute).",
      "Only zero-permission extensions without [[provides]]/[[implements]] run here; capability"
          + " providers run through their capability command.",
      "Exit 0 when the provider succeeded (or the preview is ready), 1 when it failed, 2 on errors."
    })
final class ExtensionRunCommand extends SessionCommand {
  @Parameters(paramLabel = "ID", description = "The extension id.")
  String id = "";

  @Mixin InputOption input = new InputOption();

  ExtensionRunCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    ExtensionId extension = Arguments.extensionId(id);
    Loopx loopx = session.loopx(settings);
    try (InputStream request = input.open(session)) {
      return Views.invocation(loopx.run(RunRequest.of(extension, request), settings.mode()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close the request input", e);
    }
  }
}
