package io.loopx.samples.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code loopx capability show ID [--extension-manifest PATH]... [--include-internal]}. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = "Show one capability with its implementation providers.")
final class CapabilityShowCommand extends SessionCommand {
  @Parameters(paramLabel = "ID", description = "The capability id.")
  String id = "";

  @Mixin CatalogOptions catalog = new CatalogOptions();

  CapabilityShowCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    return Views.detail(
        catalog
            .registry(session.loopx(settings))
            .detailJson(Arguments.capabilityId(id), catalog.scope()));
  }
}
