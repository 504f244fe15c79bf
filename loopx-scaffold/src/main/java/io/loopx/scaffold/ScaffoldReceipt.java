package io.loopx.scaffold;

import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.ProtocolId;
import io.loopx.runtime.Mode;
import io.loopx.runtime.Receipt;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Receipt of {@code extension init} ({@value #SCHEMA_VERSION}, docs/contract/scaffold.md).
 *
 * <p>JSON keys, always all present, in this order: {@code ok} (always true: a failure is an
 * exception), {@code schema_version}, {@code operation} ({@value #OPERATION}), {@code dry_run},
 * {@code changed} (true exactly when executed), {@code extension_id}, {@code version}, {@code
 * destination} (absolute), {@code protocol}, {@code permissions} (always {@code []}), {@code
 * starter_kind} ({@value #STARTER_KIND}), {@code language} ({@code java} or {@code python}, {@link
 * StarterLanguage#wireName()}), {@code capability_id} (always {@code null}), {@code
 * managed_entrypoint} ({@value #MANAGED_ENTRYPOINT}), {@code files} ({@code [{path, status}]} in
 * creation order) and {@code next_commands} ({@code {build, install, run}}, shell command lines).
 *
 * <p>Immutable.
 *
 * @param mode {@link Mode#PREVIEW} (nothing written) or {@link Mode#EXECUTE}
 * @param extensionId the starter's extension id
 * @param version the starter's version
 * @param destination the absolute package directory
 * @param protocol the starter's runtime protocol
 * @param files the package's files, each {@code would_create} in a preview and {@code created}
 *     otherwise
 * @param nextCommands the explicit steps that follow (the scaffold performs none of them)
 * @param language the language of the generated provider
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ScaffoldReceipt(
    Mode mode,
    ExtensionId extensionId,
    String version,
    Path destination,
    ProtocolId protocol,
    List<ScaffoldFile> files,
    NextCommands nextCommands,
    StarterLanguage language)
    implements Receipt {

  /** The receipt schema. */
  public static final String SCHEMA_VERSION = "loopx_extension_scaffold_v0";

  /** The {@code operation} of every scaffold receipt. */
  public static final String OPERATION = "init";

  /** The only starter kind generated: a standalone, zero-permission extension. */
  public static final String STARTER_KIND = "standalone";

  /** The command through which a standalone starter is invoked. */
  public static final String MANAGED_ENTRYPOINT = "loopx extension run";

  /**
   * Checks nulls and consistency and copies the file list.
   *
   * @throws InvalidValueException when the destination is relative, the file list is empty, or a
   *     file's status does not match {@code mode}
   */
  public ScaffoldReceipt {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(protocol, "protocol");
    files = List.copyOf(files);
    Objects.requireNonNull(nextCommands, "nextCommands");
    Objects.requireNonNull(language, "language");
    if (!destination.isAbsolute()) {
      throw new InvalidValueException(
          "scaffold receipt destination", destination.toString(), "must be absolute");
    }
    if (files.isEmpty()) {
      throw new InvalidValueException("scaffold receipt files", "[]", "must not be empty");
    }
    ScaffoldFile.Status expected =
        mode.executes() ? ScaffoldFile.Status.CREATED : ScaffoldFile.Status.WOULD_CREATE;
    for (ScaffoldFile f : files) {
      if (f.status() != expected) {
        throw new InvalidValueException(
            "scaffold receipt file status",
            f.status().wireName(),
            "must be `" + expected.wireName() + "` when dry_run is " + !mode.executes());
      }
    }
  }

  /** Returns whether files were written: true exactly when executed. */
  public boolean changed() {
    return mode.executes();
  }

  /** Always true: a scaffold that cannot proceed throws instead. */
  @Override
  public boolean ok() {
    return true;
  }

  @Override
  public String schemaVersion() {
    return SCHEMA_VERSION;
  }

  @Override
  public ObjectNode toJson() {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    ObjectNode o = nodes.objectNode();
    o.put("ok", ok());
    o.put("schema_version", SCHEMA_VERSION);
    o.put("operation", OPERATION);
    o.put("dry_run", !mode.executes());
    o.put("changed", changed());
    o.put("extension_id", extensionId.value());
    o.put("version", version);
    o.put("destination", destination.toString());
    o.put("protocol", protocol.value());
    o.set("permissions", nodes.arrayNode());
    o.put("starter_kind", STARTER_KIND);
    o.put("language", language.wireName());
    o.putNull("capability_id");
    o.put("managed_entrypoint", MANAGED_ENTRYPOINT);
    ArrayNode list = o.putArray("files");
    for (ScaffoldFile f : files) {
      ObjectNode file = list.addObject();
      file.put("path", f.path());
      file.put("status", f.status().wireName());
    }
    ObjectNode next = o.putObject("next_commands");
    next.put("build", nextCommands.build());
    next.put("install", nextCommands.install());
    next.put("run", nextCommands.run());
    return o;
  }

  /**
   * The explicit steps after a scaffold, as POSIX shell command lines (paths quoted where needed).
   *
   * @param build builds the provider ({@code mvn -q -f <destination>/pom.xml package})
   * @param install installs it with the sample host CLI ({@code ... extension install --manifest
   *     <destination>/extension.toml --execute})
   * @param run runs it on the example request ({@code ... extension run <id> --input-json
   *     <destination>/examples/request.json --execute})
   */
  public record NextCommands(String build, String install, String run) {
    /** Rejects nulls. */
    public NextCommands {
      Objects.requireNonNull(build, "build");
      Objects.requireNonNull(install, "install");
      Objects.requireNonNull(run, "run");
    }
  }
}
