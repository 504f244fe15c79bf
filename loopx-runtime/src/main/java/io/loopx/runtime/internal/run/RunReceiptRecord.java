package io.loopx.runtime.internal.run;

import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.ProtocolId;
import io.loopx.api.Revision;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.outcome.ProviderOutcomeRecord;
import io.loopx.runtime.internal.outcome.ReceiptFields;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunStatus;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link RunReceipt} LoopX builds; its {@link #toJson()} is the wire form.
 *
 * @param extensionId the extension that was run
 * @param providerVersion the active revision's version
 * @param revision the active revision
 * @param protocol the runtime protocol
 * @param mode preview or execute
 * @param outcome what the provider did
 * @param inputSchemaVersion the request's top-level {@code schema_version}
 * @param containment how the provider's processes were contained
 * @param memoryLimitBytes the memory limit that applied
 * @param isolation what isolated the provider's processes; empty when the host's policy is off
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public record RunReceiptRecord(
    ExtensionId extensionId,
    String providerVersion,
    Revision revision,
    ProtocolId protocol,
    Mode mode,
    ProviderOutcome outcome,
    Optional<String> inputSchemaVersion,
    Optional<Containment> containment,
    OptionalLong memoryLimitBytes,
    Optional<Isolation> isolation)
    implements RunReceipt {
  static final String SCHEMA_VERSION = "loopx_extension_run_receipt_v0";

  /**
   * Checks nulls and consistency.
   *
   * @throws InvalidValueException when the status is {@code READY} for an executed run (or anything
   *     else for a preview), or a preview carries a failure, exit code, provider result,
   *     containment or memory limit
   */
  public RunReceiptRecord {
    Objects.requireNonNull(mode, "mode");
    boolean dryRun = !mode.executes();
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(providerVersion, "providerVersion");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(inputSchemaVersion, "inputSchemaVersion");
    Objects.requireNonNull(containment, "containment");
    Objects.requireNonNull(memoryLimitBytes, "memoryLimitBytes");
    Objects.requireNonNull(isolation, "isolation");
    if ((outcome.status() == RunStatus.READY) != dryRun) {
      throw new InvalidValueException(
          "run receipt status", outcome.status().wireName(), "is `ready` exactly for a preview");
    }
    if (dryRun
        && (outcome.failure().isPresent()
            || outcome.exitCode().isPresent()
            || outcome.providerResult().isPresent()
            || containment.isPresent()
            || memoryLimitBytes.isPresent())) {
      throw new InvalidValueException(
          "run receipt",
          extensionId.value(),
          "a preview has no failure, exit code, result, containment or memory limit");
    }
  }

  /** Creates a receipt without an {@link #isolation()}. */
  public RunReceiptRecord(
      ExtensionId extensionId,
      String providerVersion,
      Revision revision,
      ProtocolId protocol,
      Mode mode,
      ProviderOutcome outcome,
      Optional<String> inputSchemaVersion,
      Optional<Containment> containment,
      OptionalLong memoryLimitBytes) {
    this(
        extensionId,
        providerVersion,
        revision,
        protocol,
        mode,
        outcome,
        inputSchemaVersion,
        containment,
        memoryLimitBytes,
        Optional.empty());
  }

  /** Creates a receipt without a {@link #memoryLimitBytes()}. */
  public RunReceiptRecord(
      ExtensionId extensionId,
      String providerVersion,
      Revision revision,
      ProtocolId protocol,
      Mode mode,
      ProviderOutcome outcome,
      Optional<String> inputSchemaVersion,
      Optional<Containment> containment) {
    this(
        extensionId,
        providerVersion,
        revision,
        protocol,
        mode,
        outcome,
        inputSchemaVersion,
        containment,
        OptionalLong.empty());
  }

  /** Returns whether the run succeeded, or, for a preview, would be attempted. */
  @Override
  public boolean ok() {
    return ReceiptFields.ok(outcome);
  }

  @Override
  public String schemaVersion() {
    return SCHEMA_VERSION;
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("ok", ok());
    o.put("schema_version", SCHEMA_VERSION);
    o.put("operation", "run");
    o.put("extension_id", extensionId.value());
    o.put("provider_version", providerVersion);
    o.put("revision", revision.value());
    o.put("protocol", protocol.value());
    o.put("dry_run", !mode.executes());
    o.put("executed", mode.executes());
    ProviderOutcomeRecord.writeTo(outcome, o);
    if (inputSchemaVersion.isPresent()) {
      o.put("input_schema_version", inputSchemaVersion.get());
    } else {
      o.putNull("input_schema_version");
    }
    ReceiptFields.writeContainment(o, containment, memoryLimitBytes);
    ReceiptFields.writeIsolation(o, isolation);
    return o;
  }
}
