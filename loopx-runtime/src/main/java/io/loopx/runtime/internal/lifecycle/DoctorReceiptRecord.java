package io.loopx.runtime.internal.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.internal.identity.EntrypointLookup;
import io.loopx.runtime.internal.outcome.ReceiptFields;
import io.loopx.runtime.lifecycle.DoctorFailure;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link DoctorReceipt} ({@code loopx_extension_doctor_v0}, docs/contract/doctor.md). Each
 * optional component is {@code null} on the wire when empty.
 *
 * @param probedEntrypointIdentity the identity resolved before probing (also in a preview)
 * @param entrypointLookup what was looked up where; present exactly for {@link
 *     DoctorStatus#ENTRYPOINT_MISSING}
 * @param handshakeLine the start of the first line a worker wrote on stdout when it was not a valid
 *     handshake (failure kind {@link DoctorFailure#WORKER_HANDSHAKE_FAILED}): at most its first 200
 *     characters, white space runs as one space, unsafe characters as {@code \\uXXXX}; empty
 *     otherwise or when the host turned provider diagnostics off
 */
record DoctorReceiptRecord(
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
    OptionalLong memoryLimitBytes,
    Optional<String> handshakeLine,
    Optional<Isolation> isolation)
    implements DoctorReceipt {

  /** The packet schema version. */
  static final String SCHEMA_VERSION = "loopx_extension_doctor_v0";

  DoctorReceiptRecord {
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
    Objects.requireNonNull(isolation, "isolation");
  }

  /** Returns a packet of a revision no probe ran for: no identity verified, no diagnostics. */
  static DoctorReceiptRecord unprobed(
      ExtensionId id,
      String version,
      DoctorStatus status,
      boolean available,
      Optional<String> probed,
      Optional<DoctorFailure> failure,
      Optional<EntrypointLookup> lookup) {
    return new DoctorReceiptRecord(
        id,
        version,
        status,
        available,
        false,
        Optional.empty(),
        probed,
        failure,
        Optional.empty(),
        OptionalInt.empty(),
        Optional.empty(),
        lookup,
        OptionalLong.empty(),
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

  @Override
  public boolean ready() {
    return status == DoctorStatus.READY;
  }

  /**
   * Returns the message of the {@code doctor_not_ready} failure of {@code what} (for example {@code
   * enable doctor}): the extension, the status, the failure kind, the probe's exit code and, for a
   * missing runtime, what was looked up where.
   */
  String notReadyMessage(String what) {
    StringBuilder m =
        new StringBuilder(what)
            .append(" of `")
            .append(extensionId.value())
            .append("` is not ready: ")
            .append(status.wireName());
    StringBuilder detail = new StringBuilder();
    failure.ifPresent(f -> detail.append(f.wireName()));
    exitCode.ifPresent(
        code -> detail.append(detail.length() > 0 ? ", " : "").append("exit code ").append(code));
    entrypointLookup.ifPresent(
        lookup -> {
          detail.append("looked up `").append(lookup.name()).append("`");
          if (!lookup.searchPath().isEmpty()) {
            detail.append(" in `").append(lookup.searchPath()).append("`");
          }
        });
    if (detail.length() > 0) {
      m.append(" (").append(detail).append(")");
    }
    return m.toString();
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
    ReceiptFields.writeContainment(o, containment, memoryLimitBytes);
    ReceiptFields.writeIsolation(o, isolation);
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
