package io.loopx.samples.cli;

import io.loopx.runtime.Loopx;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code loopx demo [--keep]}: walks the bundled extensions through the whole lifecycle in a fresh
 * temporary runtime root (see {@link DemoWalk}). {@code loopx demo --validate [MANIFEST...]} only
 * loads manifests (by default the bundled ones) and shows their normalised JSON and revision: no
 * state, no provider process.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Walk the bundled loopx-text-stats through install, list, doctor, run, disable, enable,"
          + " upgrade and rollback, then recall through semantic-preference-local.",
      "The walk always uses a new temporary runtime root, deleted at the end unless --keep"
          + " (--runtime-root, --state-file and --execute do not apply to it).",
      "Exit 0 when every step exited as expected, 1 when one did not (the walk stops there).",
      "With --validate, only load and show manifests (default: the bundled ones)."
    })
final class DemoCommand extends SessionCommand {
  /** The {@code schema_version} of the walk's result. */
  static final String SCHEMA_VERSION = "loopx_demo_v0";

  /** The {@code schema_version} of the {@code --validate} result. */
  static final String VALIDATION_SCHEMA_VERSION = "loopx_demo_validation_v0";

  @Option(
      names = "--validate",
      description = "Only load and show manifests (no state, no provider process).")
  boolean validate;

  @Option(names = "--keep", description = "Keep the walk's temporary runtime root.")
  boolean keep;

  @Parameters(
      arity = "0..*",
      paramLabel = "MANIFEST",
      description = "extension.toml files to validate (with --validate).")
  List<Path> files = new ArrayList<>();

  DemoCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    if (validate) {
      if (keep) {
        throw Arguments.usage("--keep applies to the walk, not to --validate");
      }
      return validation(session.loopx(settings));
    }
    if (!files.isEmpty()) {
      throw Arguments.usage("MANIFEST arguments need --validate");
    }
    return DemoWalk.run(session.environment(), keep);
  }

  private CommandOutput validation(Loopx loopx) {
    List<LoadedManifest> loaded = new ArrayList<>();
    if (files.isEmpty()) {
      for (String id : session.environment().bundledManifests().keySet()) {
        loaded.add(loopx.bundledManifest(id));
      }
    } else {
      for (Path file : files) {
        loaded.add(LoadedManifest.load(file));
      }
    }
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("ok", true);
    json.put("schema_version", VALIDATION_SCHEMA_VERSION);
    ArrayNode manifests = json.putArray("manifests");
    for (LoadedManifest m : loaded) {
      ObjectNode entry = manifests.addObject();
      entry.put("source", m.source());
      entry.put("revision", m.revision().value());
      entry.set("manifest", m.manifest().toNormalizedJson());
    }
    return Views.validation(json);
  }
}
