package io.loopx.samples.cli;

import io.loopx.runtime.Loopx;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code loopx demo [MANIFEST...]}: loads each sample manifest (by default the bundled ones) and
 * shows its normalised JSON and revision. Reads manifests only: no state, no provider process.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Load sample manifests (default: the bundled ones); show their revisions.")
final class DemoCommand extends SessionCommand {
  /** The {@code schema_version} of the demo result. */
  static final String SCHEMA_VERSION = "loopx_demo_v0";

  @Parameters(arity = "0..*", paramLabel = "MANIFEST", description = "extension.toml files.")
  List<Path> files = new ArrayList<>();

  DemoCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    Loopx loopx = session.loopx(settings);
    List<LoadedManifest> loaded = new ArrayList<>();
    if (files.isEmpty()) {
      for (String id : session.environment().bundledManifests().keySet()) {
        loaded.add(loopx.bundledManifest(id));
      }
    } else {
      for (Path file : files) {
        loaded.add(loopx.loadManifest(file));
      }
    }
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("ok", true);
    json.put("schema_version", SCHEMA_VERSION);
    ArrayNode manifests = json.putArray("manifests");
    for (LoadedManifest m : loaded) {
      ObjectNode entry = manifests.addObject();
      entry.put("source", m.source());
      entry.put("revision", m.revision().value());
      entry.set("manifest", m.manifest().toNormalizedJson());
    }
    return Views.demo(json);
  }
}
