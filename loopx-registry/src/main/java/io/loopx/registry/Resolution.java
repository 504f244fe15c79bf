package io.loopx.registry;

import io.loopx.api.ApiRange;
import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.internal.ApiCompatibility;
import io.loopx.api.internal.Problems;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The typed outcome of resolving a (capability, protocol) pair, optionally with a caller-named
 * provider, against one registry generation: {@link ResolvedCapability} or one {@link Failure}.
 *
 * <p>Candidates are ready providers only: built-in in-process providers and installed extensions
 * that are enabled, doctor-fresh and API-compatible, with an implementation of exactly this
 * capability and protocol. Disabled or stale implementations stay visible in the catalog but never
 * resolve.
 *
 * <p>Immutable values produced by {@link CapabilityRegistry#resolve}; safe to share between
 * threads. Never null, and no component is null. Not implemented outside LoopX (sealed).
 */
@API(status = API.Status.STABLE, since = "1.0")
public sealed interface Resolution permits Resolution.ResolvedCapability, Resolution.Failure {

  /** Returns the requested capability. */
  CapabilityId capabilityId();

  /** Returns the requested protocol. */
  ProtocolId protocol();

  /** Returns whether this outcome is {@link ResolvedCapability}. */
  default boolean isResolved() {
    return this instanceof ResolvedCapability;
  }

  /** Returns this outcome if resolved, else throws the failure's {@link Failure#toException()}. */
  ResolvedCapability orElseThrow();

  /**
   * Exactly one ready provider implements the capability with the protocol.
   *
   * @param capabilityId the requested capability
   * @param protocol the requested protocol
   * @param provider the selected provider
   * @param implementation its implementation (with the in-process handler for a built-in)
   */
  record ResolvedCapability(
      CapabilityId capabilityId,
      ProtocolId protocol,
      ProviderEntry provider,
      ImplementationEntry implementation)
      implements Resolution {
    /** Rejects nulls. */
    public ResolvedCapability {
      Objects.requireNonNull(capabilityId, "capabilityId");
      Objects.requireNonNull(protocol, "protocol");
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(implementation, "implementation");
    }

    @Override
    public ResolvedCapability orElseThrow() {
      return this;
    }
  }

  /** A failed resolution with a stable error kind and a message naming the offending values. */
  sealed interface Failure extends Resolution
      permits UnknownCapability,
          NoReadyProvider,
          Ambiguous,
          ProviderNotInstalled,
          ProviderIncompatible,
          ProviderDoesNotImplement,
          ProviderDisabled,
          ProviderNotReady {

    /** Returns the error kind that {@link #toException()} carries. */
    ErrorKind kind();

    /** Returns the message that {@link #toException()} carries. */
    String message();

    /** Returns a new exception of {@link #kind()} with {@link #message()}. */
    default LoopxException toException() {
      return new LoopxException(kind(), message());
    }

    @Override
    default ResolvedCapability orElseThrow() {
      throw toException();
    }
  }

  /**
   * The capability is not registered in this generation (kind {@code RESOLUTION_FAILED}, message
   * {@code unknown capability `<id>`}).
   *
   * @param capabilityId the requested capability
   * @param protocol the requested protocol
   */
  record UnknownCapability(CapabilityId capabilityId, ProtocolId protocol) implements Failure {
    /** Rejects nulls. */
    public UnknownCapability {
      Objects.requireNonNull(capabilityId, "capabilityId");
      Objects.requireNonNull(protocol, "protocol");
    }

    @Override
    public ErrorKind kind() {
      return ErrorKind.RESOLUTION_FAILED;
    }

    @Override
    public String message() {
      return "unknown capability `" + capabilityId + "`";
    }
  }

  /**
   * No ready provider implements the capability with the protocol (kind {@code RESOLUTION_FAILED},
   * message {@code no enabled, doctor-ready extension implements <cap> with protocol <p>}).
   *
   * @param capabilityId the requested capability
   * @param protocol the requested protocol
   */
  record NoReadyProvider(CapabilityId capabilityId, ProtocolId protocol) implements Failure {
    /** Rejects nulls. */
    public NoReadyProvider {
      Objects.requireNonNull(capabilityId, "capabilityId");
      Objects.requireNonNull(protocol, "protocol");
    }

    @Override
    public ErrorKind kind() {
      return ErrorKind.RESOLUTION_FAILED;
    }

    @Override
    public String message() {
      return "no enabled, doctor-ready extension implements "
          + capabilityId
          + " with protocol "
          + protocol;
    }
  }

  /**
   * More than one ready provider implements the capability with the protocol; the caller must name
   * one (kind {@code RESOLUTION_FAILED}, message {@code multiple enabled, doctor-ready extensions
   * implement <cap> with protocol <p>: [a, b]}).
   *
   * @param capabilityId the requested capability
   * @param protocol the requested protocol
   * @param providers the ready providers, in catalog order (at least two)
   */
  record Ambiguous(CapabilityId capabilityId, ProtocolId protocol, List<ProviderId> providers)
      implements Failure {
    /** Rejects nulls and copies the list. */
    public Ambiguous {
      Objects.requireNonNull(capabilityId, "capabilityId");
      Objects.requireNonNull(protocol, "protocol");
      providers = List.copyOf(providers);
    }

    @Override
    public ErrorKind kind() {
      return ErrorKind.RESOLUTION_FAILED;
    }

    @Override
    public String message() {
      return "multiple enabled, doctor-ready extensions implement "
          + capabilityId
          + " with protocol "
          + protocol
          + ": "
          + providers;
    }
  }

  /**
   * The caller-named provider is unknown or only declared, not installed (kind {@code
   * NOT_INSTALLED}, message {@code extension `<id>` is not installed}).
   *
   * @param capabilityId the requested capability
   * @param protocol the requested protocol
   * @param providerId the named provider
   */
  record ProviderNotInstalled(CapabilityId capabilityId, ProtocolId protocol, ProviderId providerId)
      implements Failure {
    /** Rejects nulls. */
    public ProviderNotInstalled {
      Objects.requireNonNull(capabilityId, "capabilityId");
      Objects.requireNonNull(protocol, "protocol");
      Objects.requireNonNull(providerId, "providerId");
    }

    @Override
    public ErrorKind kind() {
      return ErrorKind.NOT_INSTALLED;
    }

    @Override
    public String message() {
      return "extension `" + providerId + "` is not installed";
    }
  }

  /**
   * The caller-named provider's snapshot requires an extension API range that rejects this runtime
   * (kind {@code API_INCOMPATIBLE}, message {@code extension `<id>` requires LoopX extension API
   * <range>, but this runtime provides 1}).
   *
   * @param capabilityId the requested capability
   * @param protocol the requested protocol
   * @param providerId the named provider
   * @param requiredRange the snapshot's {@code requires_loopx_api}
   */
  record ProviderIncompatible(
      CapabilityId capabilityId, ProtocolId protocol, ProviderId providerId, ApiRange requiredRange)
      implements Failure {
    /** Rejects nulls. */
    public ProviderIncompatible {
      Objects.requireNonNull(capabilityId, "capabilityId");
      Objects.requireNonNull(protocol, "protocol");
      Objects.requireNonNull(providerId, "providerId");
      Objects.requireNonNull(requiredRange, "requiredRange");
    }

    @Override
    public ErrorKind kind() {
      return ErrorKind.API_INCOMPATIBLE;
    }

    @Override
    public String message() {
      return ApiCompatibility.message(providerId, requiredRange);
    }
  }

  /**
   * The caller-named provider has no implementation of the capability with the protocol (kind
   * {@code RESOLUTION_FAILED}, message {@code provider `<id>` does not implement <cap> with
   * protocol <p>}).
   *
   * @param capabilityId the requested capability
   * @param protocol the requested protocol
   * @param providerId the named provider
   */
  record ProviderDoesNotImplement(
      CapabilityId capabilityId, ProtocolId protocol, ProviderId providerId) implements Failure {
    /** Rejects nulls. */
    public ProviderDoesNotImplement {
      Objects.requireNonNull(capabilityId, "capabilityId");
      Objects.requireNonNull(protocol, "protocol");
      Objects.requireNonNull(providerId, "providerId");
    }

    @Override
    public ErrorKind kind() {
      return ErrorKind.RESOLUTION_FAILED;
    }

    @Override
    public String message() {
      return "provider `"
          + providerId
          + "` does not implement "
          + capabilityId
          + " with protocol "
          + protocol;
    }
  }

  /**
   * The caller-named extension is installed but disabled (kind {@code EXTENSION_DISABLED}, message
   * {@code extension `<id>` is disabled}).
   *
   * @param capabilityId the requested capability
   * @param protocol the requested protocol
   * @param providerId the named provider
   */
  record ProviderDisabled(CapabilityId capabilityId, ProtocolId protocol, ProviderId providerId)
      implements Failure {
    /** Rejects nulls. */
    public ProviderDisabled {
      Objects.requireNonNull(capabilityId, "capabilityId");
      Objects.requireNonNull(protocol, "protocol");
      Objects.requireNonNull(providerId, "providerId");
    }

    @Override
    public ErrorKind kind() {
      return ErrorKind.EXTENSION_DISABLED;
    }

    @Override
    public String message() {
      return "extension `" + providerId + "` is disabled";
    }
  }

  /**
   * The caller-named extension is enabled but its doctor proof is not fresh (kind {@code
   * DOCTOR_STALE}, problem {@code extension `<id>` doctor readiness is stale}, next action {@link
   * io.loopx.api.NextAction#runDoctor run the doctor} of it with execute).
   *
   * @param capabilityId the requested capability
   * @param protocol the requested protocol
   * @param providerId the named provider
   */
  record ProviderNotReady(CapabilityId capabilityId, ProtocolId protocol, ProviderId providerId)
      implements Failure {
    /** Rejects nulls. */
    public ProviderNotReady {
      Objects.requireNonNull(capabilityId, "capabilityId");
      Objects.requireNonNull(protocol, "protocol");
      Objects.requireNonNull(providerId, "providerId");
    }

    @Override
    public ErrorKind kind() {
      return ErrorKind.DOCTOR_STALE;
    }

    @Override
    public String message() {
      return toException().getMessage();
    }

    @Override
    public LoopxException toException() {
      return Problems.doctorStale(ExtensionId.of(providerId));
    }
  }
}
