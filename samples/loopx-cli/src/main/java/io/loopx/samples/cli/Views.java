package io.loopx.samples.cli;

import io.loopx.runtime.Receipt;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The text renderings of the CLI's results; the JSON is always the object itself. */
final class Views {
  private Views() {}

  /**
   * A lifecycle receipt or doctor packet: {@code key: value} lines with the statuses highlighted,
   * and a reminder when it was only a preview.
   */
  static CommandOutput receipt(Receipt receipt) {
    ObjectNode json = receipt.toJson();
    return new CommandOutput(
        json,
        style -> {
          String text = receiptLines(json, style);
          JsonNode dryRun = json.get("dry_run");
          if (dryRun != null && dryRun.booleanValue(false)) {
            text += "Preview only: nothing was changed. Add --execute to apply.\n";
          }
          return text;
        });
  }

  /**
   * Returns the {@code key: value} lines of a receipt, packet or error packet; a nested doctor
   * packet is shown without the keys that repeat the receipt's.
   */
  static String receiptLines(ObjectNode json, Style style) {
    ObjectNode shown = json.deepCopy();
    if (shown.get("doctor") instanceof ObjectNode doctor) {
      // the nested packet repeats what the receipt already says
      doctor.remove(List.of("ok", "schema_version", "extension_id"));
    }
    return Text.keyValues(shown, style);
  }

  /**
   * A run or capability dispatch receipt: {@code key: value} lines (the provider result flattened
   * as {@code provider_result.…}) with the status highlighted, and a reminder when it was only a
   * preview.
   */
  static CommandOutput invocation(Receipt receipt) {
    ObjectNode json = receipt.toJson();
    return new CommandOutput(
        json,
        style -> {
          String text = Text.keyValues(json, style);
          if (json.get("dry_run").booleanValue(false)) {
            text += "Preview only: the provider was not started. Add --execute to run it.\n";
          }
          return text;
        });
  }

  /** {@code extension list}: one aligned row per installed extension. */
  static CommandOutput extensionList(Receipt list) {
    ObjectNode json = list.toJson();
    return new CommandOutput(
        json,
        style -> {
          Text.Table table =
              new Text.Table(
                  List.of("ID", "ENABLED", "ACTIVE REVISION", "ROLLBACK", "DOCTOR", "REVISIONS"),
                  c -> c == 4);
          for (JsonNode row : json.get("extensions").values()) {
            table.row(
                List.of(
                    Text.scalar(row.get("id")),
                    Text.scalar(row.get("enabled")),
                    Text.scalar(row.get("active_revision")),
                    Text.scalar(row.get("rollback_available")),
                    row.get("doctor_verified").booleanValue(false) ? "verified" : "not_verified",
                    Text.scalar(row.get("revision_count"))));
          }
          return table.render(style, "No extensions installed.");
        });
  }

  /** {@code extension doctor --all-enabled}: the summary, then one row per enabled extension. */
  static CommandOutput doctorBatch(Receipt batch) {
    ObjectNode json = batch.toJson();
    return new CommandOutput(
        json,
        style -> {
          ObjectNode summary = json.deepCopy();
          summary.remove("extensions");
          Text.Table table =
              new Text.Table(
                  List.of("ID", "VERSION", "STATUS", "AVAILABLE", "VERIFIED", "FAILURE"),
                  c -> c == 2);
          for (JsonNode p : json.get("extensions").values()) {
            table.row(
                List.of(
                    Text.scalar(p.get("extension_id")),
                    Text.scalar(p.get("version")),
                    Text.scalar(p.get("status")),
                    Text.scalar(p.get("available")),
                    Text.scalar(p.get("verified")),
                    Text.scalar(p.get("failure_kind"))));
          }
          return Text.keyValues(summary, style)
              + "\n"
              + table.render(style, "No enabled extensions.");
        });
  }

  /** {@code capability list}: the capabilities, then the providers, as aligned tables. */
  static CommandOutput catalog(ObjectNode json) {
    return new CommandOutput(
        json,
        style -> {
          Text.Table capabilities =
              new Text.Table(
                  List.of(
                      "ID",
                      "VISIBILITY",
                      "ORIGIN",
                      "PROVIDER",
                      "READY",
                      "IMPLEMENTATIONS",
                      "TITLE"),
                  c -> c == 4);
          for (JsonNode c : json.get("capabilities").values()) {
            capabilities.row(
                List.of(
                    Text.scalar(c.get("id")),
                    Text.scalar(c.get("visibility")),
                    Text.scalar(c.get("origin")),
                    Text.scalar(c.get("provider_id")),
                    Text.scalar(c.get("provider_state").get("ready")),
                    Text.scalar(c.get("implementation_provider_count")),
                    Text.scalar(c.get("title"))));
          }
          Text.Table providers =
              new Text.Table(
                  List.of(
                      "PROVIDER", "ORIGIN", "DECLARED", "INSTALLED", "ENABLED", "READY", "VERSION"),
                  c -> c == 5);
          for (JsonNode p : json.get("providers").values()) {
            List<String> cells = new ArrayList<>();
            for (String key :
                List.of("id", "origin", "declared", "installed", "enabled", "ready", "version")) {
              cells.add(Text.scalar(p.get(key)));
            }
            providers.row(cells);
          }
          return style.bold("Capabilities")
              + "\n"
              + capabilities.render(style, "No capabilities.")
              + "\n"
              + style.bold("Providers")
              + "\n"
              + providers.render(style, "No providers.");
        });
  }

  /** {@code capability show}: the capability's fields as {@code key: value} lines. */
  static CommandOutput detail(ObjectNode json) {
    return new CommandOutput(json, style -> Text.keyValues(json.get("capability"), style));
  }

  /** {@code demo --validate}: for each manifest its source, revision and normalised JSON. */
  static CommandOutput validation(ObjectNode json) {
    return new CommandOutput(
        json,
        style -> {
          StringBuilder out = new StringBuilder();
          List<JsonNode> manifests = new ArrayList<>(json.get("manifests").values());
          if (manifests.isEmpty()) {
            return "No manifests: pass extension.toml paths (no bundled manifest is on the class"
                + " path).\n";
          }
          for (JsonNode m : manifests) {
            out.append(style.bold(Text.scalar(m.get("source")))).append('\n');
            out.append("  revision: ").append(Text.scalar(m.get("revision"))).append('\n');
            out.append("  manifest: ")
                .append(SafeText.escaped(m.get("manifest").toString()))
                .append('\n');
          }
          return out.toString();
        });
  }
}
