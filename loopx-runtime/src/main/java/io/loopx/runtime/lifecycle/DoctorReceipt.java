package io.loopx.runtime.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.process.Containment;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apiguardian.api.API;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The doctor receipt ({@code loopx_extension_doctor_v0}, the "doctor packet" of
 * docs/contract/doctor.md) of one extension revision. It also appears inside lifecycle receipts.
 * Each optional component is {@code null} on the wire when empty.
 *
 * @param extensionId the extension
 * @param version the revision's version text
 * @param status the ladder status
 * @param available the runtime resolves and nothing failed
 * @param verified an executed probe succeeded
 * @param entrypointIdentity the verified identity (present only when verified)
 * @param probedEntrypointIdentity the identity resolved before probing (also in a preview)
 * @param failure the failure kind, where the doctor ladder names one
 * @param containment how the probe's processes were contained; empty when no probe ran or the
 *     host's launcher does not say
 * @param exitCode the probe's own exit status; empty when no probe ran or it did not exit by itself
 * @param stderrTail the last at most 4,096 bytes the probe wrote to stderr; empty when none
 * @param entrypointLookup what was looked up where; present exactly for {@link
 *     DoctorStatus#ENTRYPOINT_MISSING}
 * @param memoryLimitBytes the memory limit that applied to the probe's processes in bytes; empty
 *     when no probe ran or no limit applied
 * @param handshakeLine the start of the line a worker wrote instead of its handshake ({@link
 *     #handshakeLine()}); empty otherwise
 */
@API(status = API.Status.STABLE, since = "0.1")
public record DoctorReceipt(
    ExtensionId extensionId,
    String version,
    DoctorStatus status,
    boolean available,
    boolean verified,
    Optional<String> entrypointIdentity,
    Optional<String> probedEntrypointIdentity,
    Optional<DoctorFailure> failure,
    Optional<Containment> containment,
    OptionalInt exitCode,
    Optional<String> stderrTail,
    Optional<EntrypointLookup> entrypointLookup,
    @API(status = API.Status.EXPERIMENTAL, since = "0.3") OptionalLong memoryLimitBytes,
    @API(status = API.Status.EXPERIMENTAL, since = "0.3") Optional<String> handshakeLine)
    implements Receipt {

  /** The packet schema version. */
  public static final String SCHEMA_VERSION = "loopx_extension_doctor_v0";

  /** Rejects nulls. The canonical constructor is new in 0.3. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.3")
  public DoctorReceipt {
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(entrypointIdentity, "entrypointIdentity");
    Objects.requireNonNull(probedEntrypointIdentity, "probedEntrypointIdentity");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(containment, "containment");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(stderrTail, "stderrTail");
    Objects.requireNonNull(entrypointLookup, "entrypointLookup");
    Objects.requireNonNull(memoryLimitBytes, "memoryLimitBytes");
    Objects.requireNonNull(handshakeLine, "handshakeLine");
  }

  /** Creates a packet without a {@link #memoryLimitBytes()} or a {@link #handshakeLine()}. */
  public DoctorReceipt(
      ExtensionId extensionId,
      String version,
      DoctorStatus status,
      boolean available,
      boolean verified,
      Optional<String> entrypointIdentity,
      Optional<String> probedEntrypointIdentity,
      Optional<DoctorFailure> failure,
      Optional<Containment> containment,
      OptionalInt exitCode,
      Optional<String> stderrTail,
      Optional<EntrypointLookup> entrypointLookup) {
    this(
        extensionId,
        version,
        status,
        available,
        verified,
        entrypointIdentity,
        probedEntrypointIdentity,
        failure,
        containment,
        exitCode,
        stderrTail,
        entrypointLookup,
        OptionalLong.empty(),
        Optional.empty());
  }

  /**
   * Returns the start of the first line a worker wrote on stdout when it was not a valid handshake
   * ({@code handshake_line}, failure kind {@link DoctorFailure#WORKER_HANDSHAKE_FAILED}): at most
   * its first 200 characters, white space runs as one space, unsafe characters as {@code \\uXXXX};
   * empty when the worker check wrote no such line (no worker check, a valid handshake, nothing in
   * time) or the host turned provider diagnostics off.
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.3")
  @Override
  public Optional<String> handshakeLine() {
    return handshakeLine;
  }

  /** Creates a packet without probe diagnostics (no exit code, stderr tail or lookup). */
  public DoctorReceipt(
      ExtensionId extensionId,
      String version,
      DoctorStatus status,
      boolean available,
      boolean verified,
      Optional<String> entrypointIdentity,
      Optional<String> probedEntrypointIdentity,
      Optional<DoctorFailure> failure,
      Optional<Containment> containment) {
    this(
        extensionId,
        version,
        status,
        available,
        verified,
        entrypointIdentity,
        probedEntrypointIdentity,
        failure,
        containment,
        OptionalInt.empty(),
        Optional.empty(),
        Optional.empty());
  }

  /** A doctor packet is always {@code ok}: the status says how the runtime is. */
  @Override
  public boolean ok() {
    return true;
  }

  @Override
  public String schemaVersion() {
    return SCHEMA_VERSION;
  }

  /** Returns whether the status is {@link DoctorStatus#READY}. */
  public boolean ready() {
    return status == DoctorStatus.READY;
  }

  /** Returns the packet as JSON, every key present ({@code null} where it does not apply). */
  @Override
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("ok", true);
    o.put("schema_version", SCHEMA_VERSION);
    o.put("extension_id", extensionId.value());
    o.put("version", version);
    o.put("status", status.wireName());
    o.put("available", available);
    o.put("verified", verified);
    o.put("entrypoint_identity", entrypointIdentity.orElse(null));
    o.put("probed_entrypoint_identity", probedEntrypointIdentity.orElse(null));
    o.put("failure_kind", failure.map(DoctorFailure::wireName).orElse(null));
    o.put("external_writes_performed", false);
    o.put("containment", containment.map(Containment::wireName).orElse(null));
    if (memoryLimitBytes.isPresent()) {
      o.put("memory_limit_bytes", memoryLimitBytes.getAsLong());
    } else {
      o.putNull("memory_limit_bytes");
    }
    if (exitCode.isPresent()) {
      o.put("exit_code", exitCode.getAsInt());
    } else {
      o.putNull("exit_code");
    }
    o.put("stderr_tail", stderrTail.orElse(null));
    if (entrypointLookup.isPresent()) {
      o.set("entrypoint_lookup", entrypointLookup.get().toJson());
    } else {
      o.putNull("entrypoint_lookup");
    }
    o.put("handshake_line", handshakeLine.orElse(null));
    return o;
  }
}
