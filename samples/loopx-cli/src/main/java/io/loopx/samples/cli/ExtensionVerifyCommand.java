package io.loopx.samples.cli;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.Mode;
import io.loopx.runtime.conformance.ConformanceReceipt;
import io.loopx.runtime.conformance.ProviderConformance;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code loopx extension verify (--manifest PATH | --bundled ID) [--input-json PATH] [--action A
 * --scope-json PATH] [--effect-marker PATH] [--isolation POLICY]}: the conformance check of a
 * provider in any language (docs/contract/verify.md), in scratch directories; the activation state
 * is never read or written.
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = {
      "Check that a provider keeps the provider protocol (run the checks with --execute), in"
          + " scratch directories; nothing is installed.",
      "Exit 0 when no check failed, 1 when one failed, 2 on usage errors."
    })
final class ExtensionVerifyCommand extends SessionCommand {
  @Mixin ManifestChoice source = new ManifestChoice();

  @Option(
      names = "--input-json",
      paramLabel = "PATH",
      description =
          "A request the provider must answer (default: the package's examples/request.json).")
  @Nullable String inputJson;

  @Option(
      names = "--action",
      paramLabel = "A",
      description = "The action an [[implements]] provider expects in its envelope.")
  @Nullable String action;

  @Option(
      names = "--scope-json",
      paramLabel = "PATH",
      description = "The scope (a JSON object) an [[implements]] provider expects.")
  @Nullable String scopeJson;

  @Option(
      names = "--effect-marker",
      paramLabel = "PATH",
      description = "A path the provider creates on effect: must stay absent while refusing.")
  @Nullable String effectMarker;

  @Option(
      names = "--isolation",
      paramLabel = "POLICY",
      description =
          "off (default), when_available or required: run the provider isolated by bubblewrap,"
              + " as a host with that policy does; the receipt says which isolation applied.")
  @Nullable String isolation;

  ExtensionVerifyCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    if ((action == null) != (scopeJson == null)) {
      throw Arguments.usage("give --action and --scope-json together");
    }
    LoadedManifest manifest = load();
    ProviderConformance.Builder builder = ProviderConformance.builder(manifest, request(manifest));
    String givenAction = action;
    String givenScope = scopeJson;
    if (givenAction != null && givenScope != null) {
      builder.binding(Arguments.action(givenAction), object(Arguments.path(givenScope), "scope"));
    } else if (source.bundled != null && isSemanticPreference(manifest)) {
      builder.binding(SampleHostPolicy.RECALL, SampleHostPolicy.recallScope());
    }
    String marker = effectMarker;
    if (marker != null) {
      builder.effectMarker(Arguments.path(marker));
    }
    // The same allow-list as every other command's providers get.
    builder.hostEnvironment(
        CliSession.providerPolicy(settings.providerEnv())
            .filter(CliSession.hostEnvironment(session.environment(), settings.providerPath())));
    String policy = isolation;
    if (policy != null) {
      builder.isolation(isolationPolicy(policy));
    }
    ProviderConformance check = builder.build();
    return checks(settings.mode().executes() ? check.verify() : check.preview());
  }

  private static IsolationPolicy isolationPolicy(String word) {
    for (IsolationPolicy p : IsolationPolicy.values()) {
      if (p.name().toLowerCase(Locale.ROOT).equals(word)) {
        return p;
      }
    }
    throw Arguments.usage(
        "--isolation must be off, when_available or required, not `" + word + "`");
  }

  /** Loads the manifest; a bundled one without a {@code Loopx}, so no runtime root is opened. */
  private LoadedManifest load() {
    return source.load(
        id -> {
          byte[] toml = session.environment().bundledManifests().get(id);
          if (toml == null) {
            throw new LoopxException(
                ErrorKind.MANIFEST_INVALID,
                "unknown bundled extension `"
                    + id
                    + "`; bundled: "
                    + session.environment().bundledManifests().keySet().stream().sorted().toList());
          }
          return LoadedManifest.parse(toml, "bundled:" + id, Path.of("").toAbsolutePath());
        });
  }

  private ObjectNode request(LoadedManifest manifest) {
    String given = inputJson;
    if (given != null) {
      return object(Arguments.path(given), "request");
    }
    String bundled = source.bundled;
    if (bundled != null) {
      String resource = "loopx/bundled/" + bundled + "/examples/request.json";
      byte[] bytes =
          CliEnvironment.resource(resource)
              .orElseThrow(
                  () ->
                      Arguments.usage(
                          "`" + bundled + "` ships no example request: give --input-json"));
      return parse(bytes, resource, "request");
    }
    return object(manifest.directory().resolve("examples/request.json"), "request");
  }

  private static boolean isSemanticPreference(LoadedManifest manifest) {
    return manifest.manifest().implementations().stream()
        .anyMatch(i -> i.capabilityId().equals(SampleCatalog.SEMANTIC_PREFERENCE));
  }

  private static ObjectNode object(Path file, String what) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID, "cannot read the " + what + " `" + file + "`: " + e, e);
    }
    return parse(bytes, file.toString(), what);
  }

  private static ObjectNode parse(byte[] bytes, String source, String what) {
    try {
      return StrictJson.parseObject(bytes);
    } catch (InvalidJsonException e) {
      throw new LoopxException(
          ErrorKind.REQUEST_INVALID,
          "the " + what + " `" + source + "` is not one JSON object: " + e.getMessage(),
          e);
    }
  }

  /** The receipt, shown in text as one line per check. */
  private static CommandOutput checks(ConformanceReceipt receipt) {
    ObjectNode json = receipt.toJson();
    return new CommandOutput(
        json,
        style -> {
          ObjectNode summary = json.deepCopy();
          summary.remove("checks");
          Text.Table table = new Text.Table(List.of("CHECK", "STATUS", "EVIDENCE"), c -> c == 1);
          for (JsonNode c : json.get("checks").values()) {
            table.row(
                List.of(
                    Text.scalar(c.get("id")),
                    Text.scalar(c.get("status")),
                    Text.scalar(c.get("evidence"))));
          }
          String text = Text.keyValues(summary, style) + "\n" + table.render(style, "No checks.");
          return receipt.mode() == Mode.PREVIEW
              ? text + "Preview only: nothing was run. Add --execute to run the checks.\n"
              : text;
        });
  }
}
