package io.loopx.runtime.run;

import io.loopx.api.ExtensionId;
import io.loopx.api.ProtocolId;
import io.loopx.api.Revision;
import io.loopx.runtime.Mode;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * Receipt of a managed run of a standalone extension ({@code loopx_extension_run_receipt_v0}). Its
 * JSON keys (always all present, {@code null} where they do not apply), the first-match
 * classification of its {@link #outcome} and its exit code are in docs/contract/run.md ("Run
 * receipt", "Outcome list", "Exit code"). {@link #ok()} is whether the run succeeded or, for a
 * preview, would be attempted. Immutable. Implemented by LoopX only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface RunReceipt extends Receipt {

  /** Returns the extension that was run. */
  ExtensionId extensionId();

  /** Returns the active revision's manifest {@code version}. */
  String providerVersion();

  /** Returns the active revision. */
  Revision revision();

  /** Returns the runtime protocol. */
  ProtocolId protocol();

  /** Returns whether this was a preview ({@code dry_run}) or an executed run. */
  Mode mode();

  /** Returns what the provider did (status {@link RunStatus#READY} exactly for a preview). */
  ProviderOutcome outcome();

  /** Returns the request's top-level {@code schema_version} when it is a string. */
  Optional<String> inputSchemaVersion();

  /**
   * Returns how the provider's processes were contained ({@code containment}); empty for a preview
   * and when the host's {@link io.loopx.runtime.spi.ProcessLauncher} does not say.
   */
  Optional<Containment> containment();

  /**
   * Returns the memory limit that applied to the provider's processes in bytes ({@code
   * memory_limit_bytes}, docs/contract/run.md#memory-limit); empty for a preview and when no limit
   * applied.
   */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  OptionalLong memoryLimitBytes();

  /**
   * Returns what isolated the provider's processes ({@code isolation}, docs/process.md#isolation):
   * empty, and the field absent, for a preview, an in-process provider, or a host whose isolation
   * policy is off.
   */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  default Optional<Isolation> isolation() {
    return Optional.empty();
  }
}
