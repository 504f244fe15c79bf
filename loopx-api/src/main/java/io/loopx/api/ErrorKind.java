package io.loopx.api;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * The stable, machine-readable kind of a {@link LoopxException}. Callers branch on the kind, never
 * on the message. {@link #wireName()} is the snake_case word used in JSON error packets.
 *
 * <p>New kinds may be added in minor releases; existing ones never change meaning or wire name.
 */
@API(status = API.Status.STABLE, since = "1.0")
public enum ErrorKind {
  /** A manifest rule failed, or a manifest file is missing or unreadable. */
  MANIFEST_INVALID,
  /** A manifest's {@code requires_loopx_api} range does not admit this runtime's API version. */
  API_INCOMPATIBLE,
  /** A command named an extension id that has no state entry. */
  NOT_INSTALLED,
  /** Install of an extension id that is already installed. */
  ALREADY_INSTALLED,
  /** Upgrade to the revision that is already active. */
  REVISION_ALREADY_ACTIVE,
  /** A doctor probe required by a lifecycle command did not report {@code ready}. */
  DOCTOR_NOT_READY,
  /** Rollback of an extension that has no rollback revision. */
  NO_ROLLBACK_REVISION,
  /** The extension is disabled. */
  EXTENSION_DISABLED,
  /** The extension's doctor proof is stale. */
  DOCTOR_STALE,
  /** A permission rule refused the operation. */
  PERMISSION_DENIED,
  /** No unique ready implementation, an unknown capability, or a non-standalone run. */
  RESOLUTION_FAILED,
  /** Duplicate or inconsistent catalog registrations. */
  CATALOG_CONFLICT,
  /** A write to a registry assembly after it was sealed. */
  REGISTRY_SEALED,
  /** A built-in contribution failed while registering; the assembly was discarded. */
  CONTRIBUTION_FAILED,
  /** The durable activation state cannot be read or is invalid. */
  STATE_UNREADABLE,
  /** The activation state lock could not be acquired within the bounded wait. */
  STATE_LOCKED,
  /** The activation state changed between the precondition check and the write. */
  STATE_CONFLICT,
  /** A run or dispatch request is oversized, not a JSON object, or otherwise invalid. */
  REQUEST_INVALID,
  /** An execution envelope does not match the operation it claims to bind. */
  ENVELOPE_MISMATCH,
  /** The host's domain policy refused the action. */
  POLICY_DENIED,
  /** The scaffold destination, id or version is invalid, or writing the starter failed. */
  SCAFFOLD_INVALID,
  /**
   * Install or upgrade of a runtime LoopX refuses to identify: a {@code #!} line over the kernel's
   * limit, a non-UTF-8 interpreter path, options passed to {@code env}, or an interpreter that is
   * itself a script (the bytes that would run could differ from the bytes hashed).
   */
  ENTRYPOINT_UNSUPPORTED,
  /** A value handed to an API factory breaks its grammar (for example {@code ExtensionId.of}). */
  INVALID_VALUE,
  /** An I/O operation on durable state or a provider artifact failed. */
  IO_FAILED,
  /** Uninstall of an extension that is still enabled (disable it first). */
  EXTENSION_ENABLED,
  /**
   * No warm worker of the provider had a free slot within the request's time, or its queue of
   * waiting requests was full (docs/contract/worker.md#pool).
   */
  PROVIDER_BUSY,
  /**
   * The warm workers of the provider failed to start three times in a row (docs/contract/
   * worker.md#failure); requests are refused until a doctor of the extension reports ready.
   */
  PROVIDER_UNAVAILABLE,
  /**
   * The host requires isolation ({@code IsolationPolicy.REQUIRED}) and bubblewrap is missing or
   * cannot isolate on this machine: nothing was started (docs/process.md#isolation).
   */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  ISOLATION_UNAVAILABLE,
  /**
   * A run or dispatch of a revision that declares access to a root ({@code runtime.access}) the
   * host does not map ({@code Loopx.Builder.accessRoot}): nothing was started (docs/access.md).
   */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  ACCESS_ROOT_UNKNOWN;

  // Computed once: receipts, events and error packets ask for it on every call.
  private final String wireName = name().toLowerCase(Locale.ROOT);

  /** Returns the snake_case name used on the wire, e.g. {@code manifest_invalid}. */
  public String wireName() {
    return wireName;
  }
}
