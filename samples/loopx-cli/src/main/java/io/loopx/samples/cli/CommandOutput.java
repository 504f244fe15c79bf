package io.loopx.samples.cli;

import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The result of a command: its JSON object (printed as is with {@code --format json}) and its text
 * rendering. The exit code follows the object's {@code ok}: 0 when true, 1 when false.
 *
 * @param json the receipt, packet or read model, with {@code ok} and {@code schema_version}
 * @param text the readable rendering
 */
record CommandOutput(ObjectNode json, TextView text) {

  /** Rejects nulls and an object without a boolean {@code ok}. */
  CommandOutput {
    Objects.requireNonNull(json, "json");
    Objects.requireNonNull(text, "text");
    JsonNode ok = json.get("ok");
    if (ok == null || !ok.isBoolean()) {
      throw new IllegalArgumentException("command output needs a boolean `ok`");
    }
  }

  /** Returns a copy of the JSON object. */
  @Override
  public ObjectNode json() {
    return json.deepCopy();
  }

  /** Returns the object's {@code ok}. */
  boolean ok() {
    return json.get("ok").booleanValue();
  }

  /** Returns the process exit code of this result: 0 when ok, 1 when not. */
  int exitCode() {
    return ok() ? 0 : 1;
  }
}
