package io.loopx.runtime.doctor;

import io.loopx.api.ApiRange;
import io.loopx.api.ExtensionId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.runtime.Receipt;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The doctor packet ({@code loopx_extension_doctor_v0}) of one extension revision. It also appears
 * inside lifecycle receipts.
 *
 * @param extensionId the extension
 * @param version the revision's version text
 * @param status the ladder status
 * @param available the runtime resolves and nothing failed
 * @param verified an executed probe succeeded
 * @param entrypointIdentity the verified identity (present only when verified)
 * @param probedEntrypointIdentity the identity resolved before probing (also in a preview)
 * @param failure the failure kind, where SPEC §5 names one
 */
public record DoctorPacket(
    ExtensionId extensionId,
    String version,
    DoctorStatus status,
    boolean available,
    boolean verified,
    Optional<String> entrypointIdentity,
    Optional<String> probedEntrypointIdentity,
    Optional<DoctorFailure> failure)
    implements Receipt {

  /** The packet schema version. */
  public static final String SCHEMA_VERSION = "loopx_extension_doctor_v0";

  /** Rejects nulls. */
  public DoctorPacket {
    Objects.requireNonNull(extensionId, "extensionId");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(entrypointIdentity, "entrypointIdentity");
    Objects.requireNonNull(probedEntrypointIdentity, "probedEntrypointIdentity");
    Objects.requireNonNull(failure, "failure");
  }

  /**
   * Evaluates the ladder of SPEC §5 for one revision. Pure: everything observed is passed in.
   *
   * @param manifest the revision's manifest (must have a runtime)
   * @param enabled whether the extension is enabled ({@code false} yields {@code disabled})
   * @param observation the runtime resolution before any probe
   * @param probe the executed probe's outcome; empty for a preview
   */
  public static DoctorPacket evaluate(
      ExtensionManifest manifest,
      boolean enabled,
      RuntimeObservation observation,
      Optional<ProbeOutcome> probe) {
    ExtensionId id = manifest.id();
    String version = manifest.version();
    Optional<String> probed = observation.resolvedIdentity();
    if (!enabled) {
      return blocked(id, version, DoctorStatus.DISABLED, probed, Optional.empty());
    }
    if (!manifest.requiresLoopxApi().admits(ApiRange.CURRENT_API_VERSION)) {
      return blocked(id, version, DoctorStatus.API_INCOMPATIBLE, probed, Optional.empty());
    }
    boolean configured = manifest.runtime().map(r -> r.doctorConfigured()).orElse(false);
    if (!configured) {
      return blocked(
          id,
          version,
          DoctorStatus.DOCTOR_NOT_CONFIGURED,
          probed,
          Optional.of(DoctorFailure.DOCTOR_NOT_CONFIGURED));
    }
    if (probed.isEmpty()) {
      return blocked(id, version, DoctorStatus.ENTRYPOINT_MISSING, probed, Optional.empty());
    }
    if (probe.isEmpty()) {
      return new DoctorPacket(
          id,
          version,
          DoctorStatus.PROBE_REQUIRED,
          true,
          false,
          Optional.empty(),
          probed,
          Optional.empty());
    }
    if (!probe.get().passed()) {
      return blocked(id, version, DoctorStatus.PROVIDER_UNAVAILABLE, probed, probe.get().failure());
    }
    return new DoctorPacket(
        id, version, DoctorStatus.READY, true, true, probed, probed, Optional.empty());
  }

  private static DoctorPacket blocked(
      ExtensionId id,
      String version,
      DoctorStatus status,
      Optional<String> probed,
      Optional<DoctorFailure> failure) {
    return new DoctorPacket(id, version, status, false, false, Optional.empty(), probed, failure);
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
    return o;
  }
}
