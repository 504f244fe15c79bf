package io.loopx.samples.cli;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.runtime.Mode;
import io.loopx.store.postgresql.PostgresActivationStore;
import picocli.CommandLine.Command;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code loopx state migrate}: creates or upgrades the LoopX schema of the PostgreSQL state ({@link
 * PostgresActivationStore#migrate()}); the preview only tells whether the schema is current.
 */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description =
        "Create or upgrade the LoopX schema of the PostgreSQL state (with --execute; needs a role"
            + " that may create tables).")
final class StateMigrateCommand extends SessionCommand {
  /** The {@code schema_version} of the result. */
  static final String SCHEMA = "loopx_state_migrate_v0";

  StateMigrateCommand(CliSession session) {
    super(session);
  }

  @Override
  CommandOutput run(Settings settings) {
    PostgresActivationStore store =
        StateDatabase.required(settings, session.environment().variables());
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("ok", true);
    json.put("schema_version", SCHEMA);
    json.put("dry_run", settings.mode() == Mode.PREVIEW);
    json.put("target_schema_version", PostgresActivationStore.SCHEMA_VERSION);
    if (settings.mode() == Mode.EXECUTE) {
      json.put("installed_schema_version", store.migrate());
      json.put("schema_current", true);
    } else {
      json.put("schema_current", current(store));
    }
    return new CommandOutput(
        json,
        style -> {
          String text = Text.keyValues(json, style);
          if (json.get("dry_run").booleanValue(false)) {
            text += "Preview only: nothing was changed. Add --execute to apply.\n";
          }
          return text;
        });
  }

  /** Whether the store reads its schema now; a missing or older schema is not current. */
  private static boolean current(PostgresActivationStore store) {
    try {
      store.generation();
      return true;
    } catch (LoopxException e) {
      if (e.kind() == ErrorKind.STATE_UNREADABLE && e.getMessage().contains("migrate()")) {
        return false;
      }
      throw e;
    }
  }
}
