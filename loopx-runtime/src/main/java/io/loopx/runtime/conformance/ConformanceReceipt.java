package io.loopx.runtime.conformance;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Receipt;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Receipt of a conformance check ({@code loopx_extension_verify_v0}): {@code ok} is true when no
 * check failed. A preview lists the checks it would run, each {@code skipped}.
 *
 * @param dryRun whether this was a preview
 * @param extensionId the provider's extension
 * @param checks every check, in the order they ran
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record ConformanceReceipt(
    boolean dryRun, ExtensionId extensionId, List<ConformanceCheck> checks) implements Receipt {
  /** The receipt's {@code schema_version}. */
  public static final String SCHEMA = "loopx_extension_verify_v0";

  /** Rejects nulls and copies the list. */
  public ConformanceReceipt {
    Objects.requireNonNull(extensionId, "extensionId");
    checks = List.copyOf(checks);
  }

  @Override
  public boolean ok() {
    return checks.stream().noneMatch(c -> c.status() == CheckStatus.FAILED);
  }

  @Override
  public String schemaVersion() {
    return SCHEMA;
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("ok", ok());
    o.put("schema_version", SCHEMA);
    o.put("dry_run", dryRun);
    o.put("extension_id", extensionId.value());
    ArrayNode array = o.putArray("checks");
    for (ConformanceCheck c : checks) {
      array
          .addObject()
          .put("id", c.id())
          .put("status", c.status().wireName())
          .put("evidence", c.evidence());
    }
    return o;
  }
}
