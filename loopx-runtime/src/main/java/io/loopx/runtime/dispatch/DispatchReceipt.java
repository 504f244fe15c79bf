package io.loopx.runtime.dispatch;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.Revision;
import io.loopx.runtime.Mode;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * Receipt of a governed capability dispatch ({@code loopx_capability_dispatch_v0},
 * docs/contract/dispatch.md). In a preview the status is {@code ready} and nothing ran; executed,
 * the outcome is classified as for a managed run (an in-process built-in has no exit code).
 * Immutable. Implemented by LoopX only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface DispatchReceipt extends Receipt {

  /** Returns the capability. */
  CapabilityId capabilityId();

  /** Returns the protocol. */
  ProtocolId protocol();

  /** Returns the action bound into the envelope. */
  ActionToken action();

  /** Returns the provider that was resolved (an extension id or a built-in provider id). */
  ProviderId providerId();

  /** Returns the provider's revision bound into the envelope. */
  Revision revision();

  /** Returns whether this was a preview ({@code dry_run}) or an executed dispatch. */
  Mode mode();

  /** Returns what the provider did (for a preview: nothing ran, status {@code ready}). */
  ProviderOutcome outcome();

  /**
   * Returns how the provider's processes were contained ({@code containment}); empty for a preview,
   * an in-process built-in, and a host launcher that does not say.
   */
  Optional<Containment> containment();

  /**
   * Returns the memory limit that applied to the provider's processes in bytes ({@code
   * memory_limit_bytes}); empty for a preview, an in-process built-in, and when no limit applied.
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
