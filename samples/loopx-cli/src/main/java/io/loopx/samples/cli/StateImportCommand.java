package io.loopx.samples.cli;

import io.loopx.api.ExtensionId;
import io.loopx.store.postgresql.StateImport;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code loopx state import FILE}: moves the entries of a {@code state.json} into the PostgreSQL
 * state ({@link StateImport}); a preview unless {@code --execute}, all entries or none.
 */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description =
        "Import a state.json into the PostgreSQL state (with --execute); an entry the database"
            + " holds differently refuses the whole import.")
final class StateImportCommand extends SessionCommand {
  /** The {@code schema_version} of the result. */
  static final String SCHEMA = "loopx_state_import_v0";

  @Parameters(paramLabel = "FILE", description = "The state.json to import.")
  String file = "";

  StateImportCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    StateImport.Plan plan =
        StateImport.fromStateFile(
            Arguments.path(file).toAbsolutePath(),
            StateDatabase.required(settings, session.environment().variables()),
            settings.mode());
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("ok", true);
    json.put("schema_version", SCHEMA);
    json.put("dry_run", !plan.executed());
    ids(json.putArray("added"), plan.added());
    ids(json.putArray("identical"), plan.identical());
    json.put("executed", plan.executed());
    return new CommandOutput(
        json,
        style -> {
          String text = Text.keyValues(json, style);
          if (!plan.executed() && !plan.added().isEmpty()) {
            text += "Preview only: nothing was changed. Add --execute to apply.\n";
          }
          return text;
        });
  }

  private static void ids(ArrayNode array, List<ExtensionId> ids) {
    ids.forEach(id -> array.add(id.value()));
  }
}
