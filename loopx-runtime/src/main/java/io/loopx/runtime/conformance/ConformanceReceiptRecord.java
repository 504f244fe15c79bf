package io.loopx.runtime.conformance;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Mode;
import io.loopx.runtime.spi.Isolation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The one implementation of {@link ConformanceReceipt} (package-private). */
record ConformanceReceiptRecord(
    Mode mode,
    ExtensionId extensionId,
    List<ConformanceCheck> checks,
    Optional<Isolation> isolation)
    implements ConformanceReceipt {
  /** The receipt's {@code schema_version}. */
  static final String SCHEMA = "loopx_extension_verify_v0";

  ConformanceReceiptRecord {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(extensionId, "extensionId");
    checks = List.copyOf(checks);
    Objects.requireNonNull(isolation, "isolation");
  }

  /** A receipt without an isolation (a preview, or checks run with isolation off). */
  ConformanceReceiptRecord(Mode mode, ExtensionId extensionId, List<ConformanceCheck> checks) {
    this(mode, extensionId, checks, Optional.empty());
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
    o.put("dry_run", !mode.executes());
    o.put("extension_id", extensionId.value());
    isolation.ifPresent(i -> o.put("isolation", i.wireName()));
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
