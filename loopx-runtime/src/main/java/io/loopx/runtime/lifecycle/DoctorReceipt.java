package io.loopx.runtime.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * The doctor packet of one extension revision ({@code loopx_extension_doctor_v0},
 * docs/contract/doctor.md), returned by {@code Loopx.doctor} and nested in lifecycle receipts.
 * {@link #toJson()} also carries the wire-only diagnostics ({@code probed_entrypoint_identity},
 * {@code entrypoint_lookup}, {@code handshake_line}).
 *
 * <p>Implemented by LoopX only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface DoctorReceipt extends Receipt {
  /** Returns the extension. */
  ExtensionId extensionId();

  /** Returns the revision's version text. */
  String version();

  /** Returns the ladder status. */
  DoctorStatus status();

  /** Returns whether the status is {@link DoctorStatus#READY}. */
  boolean ready();

  /** Returns whether the runtime resolves and nothing failed. */
  boolean available();

  /** Returns whether an executed probe succeeded. */
  boolean verified();

  /** Returns the failure kind, where the doctor ladder names one. */
  Optional<DoctorFailure> failure();

  /** Returns the verified runtime identity; present only when {@link #verified()}. */
  Optional<String> entrypointIdentity();

  /** Returns the probe's own exit status; empty when no probe ran or it did not exit by itself. */
  OptionalInt exitCode();

  /** Returns the last at most 4,096 bytes the probe wrote to stderr; empty when none. */
  Optional<String> stderrTail();

  /** Returns how the probe's processes were contained; empty when no probe ran or unknown. */
  Optional<Containment> containment();

  /** Returns the memory limit of the probe's processes in bytes; empty when none applied. */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  OptionalLong memoryLimitBytes();

  /**
   * Returns what isolated the probe's processes ({@code isolation}, docs/process.md#isolation):
   * empty, and the field absent, when no probe ran or the host's isolation policy is off.
   */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  default Optional<Isolation> isolation() {
    return Optional.empty();
  }
}
