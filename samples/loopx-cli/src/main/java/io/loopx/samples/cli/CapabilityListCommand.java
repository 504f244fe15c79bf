package io.loopx.samples.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code loopx capability list [--extension-manifest PATH]... [--include-internal]}. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description =
        "List the capability catalog: built-ins, declared manifests, installed extensions.")
final class CapabilityListCommand extends SessionCommand {
  @Mixin CatalogOptions catalog = new CatalogOptions();

  CapabilityListCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    return Views.catalog(catalog.registry(session.loopx(settings)).catalogJson(catalog.scope()));
  }
}
