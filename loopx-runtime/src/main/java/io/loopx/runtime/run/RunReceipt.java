package io.loopx.runtime.run;

import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.ProtocolId;
import io.loopx.api.Revision;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.process.Containment;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Receipt of a managed run of a standalone extension ({@value #SCHEMA_VERSION}). Its JSON keys
 * (always all present, {@code null} where they do not apply), the first-match classification of its
 * {@link #outcome} and its exit code are in docs/contract/run.md ("Run receipt", "Outcome list",
 * "Exit code"). Immutable.
 *
 * @param extensionId the extension that was run
 * @param providerVersion the active revision's manifest {@code version}
 * @param revision the active revision
 * @param protocol the runtime protocol
 * @param dryRun whether this was a preview
 * @param outcome what the provider did (status {@link RunStatus#READY} exactly for a preview)
 * @param inputSchemaVersion the request's top-level {@code schema_version} when it is a string
 * @param containment how the provider's processes were contained ({@code containment}); empty for a
 *     preview and when the host's {@link io.loopx.runtime.process.ProcessLauncher} does not say
 * @param memoryLimitBytes the memory limit that applied to the provider's processes in bytes
 *     ({@code memory_limit_bytes}, docs/contract/run.md#memory-limit); empty for a preview and when
 *     no limit applied
 */
@API(status = API.Status.STABLE, since = "0.1")
public record RunReceipt(
    ExtensionId extensionId,
    String providerVersion,
    Revision revision,
    ProtocolId protocol,
    boolean dryRun,
    ProviderOutcome outcome,
    Optional<String> inputSchemaVersion,
    Optional<Containment> containment,
    @API(status = API.Status.EXPERIMENTAL, since = "0.3") OptionalLong memoryLimitBytes)
    implements Receipt {

  /** The receipt schema. */
  public static final String SCHEMA_VERSION = "loopx_extension_run_receipt_v0";

  /**
   * Checks nulls and consistency.
   *
   * @throws InvalidValueException when the status is {@code READY} for an executed run (or anything
   *     else for a preview), or a preview carries a failure, exit code, provider result,
   *     containment or memory limit
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.3")
  public RunReceipt {
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(providerVersion, "providerVersion");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(inputSchemaVersion, "inputSchemaVersion");
    Objects.requireNonNull(containment, "containment");
    Objects.requireNonNull(memoryLimitBytes, "memoryLimitBytes");
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

  /** Creates a receipt without a {@link #memoryLimitBytes()}. */
  public RunReceipt(
      ExtensionId extensionId,
      String providerVersion,
      Revision revision,
      ProtocolId protocol,
      boolean dryRun,
      ProviderOutcome outcome,
      Optional<String> inputSchemaVersion,
      Optional<Containment> containment) {
    this(
        extensionId,
        providerVersion,
        revision,
        protocol,
        dryRun,
        outcome,
        inputSchemaVersion,
        containment,
        OptionalLong.empty());
  }

  /**
   * Returns whether LoopX dispatched the request (every executed run, also one whose provider could
   * not start); always {@code !dryRun}.
   */
  public boolean executed() {
    return !dryRun;
  }

  /** Returns whether the run succeeded, or, for a preview, would be attempted. */
  @Override
  public boolean ok() {
    return outcome.status() == RunStatus.SUCCEEDED || outcome.status() == RunStatus.READY;
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
    o.put("dry_run", dryRun);
    o.put("executed", executed());
    outcome.writeTo(o);
    if (inputSchemaVersion.isPresent()) {
      o.put("input_schema_version", inputSchemaVersion.get());
    } else {
      o.putNull("input_schema_version");
    }
    o.put("containment", containment.map(Containment::wireName).orElse(null));
    if (memoryLimitBytes.isPresent()) {
      o.put("memory_limit_bytes", memoryLimitBytes.getAsLong());
    } else {
      o.putNull("memory_limit_bytes");
    }
    return o;
  }
}
