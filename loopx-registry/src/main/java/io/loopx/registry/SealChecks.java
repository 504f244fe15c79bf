package io.loopx.registry;

import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.spi.Origin;
import java.util.Objects;

/**
 * The checks that sealing applies (package-private; docs/contract/registry.md): the library
 * version, and the integrity of a complete, composed graph with its {@code CATALOG_CONFLICT}
 * messages. {@link IndexBuilder} runs the graph checks in order: providers, then capabilities, then
 * implementations, each in list order.
 */
final class SealChecks {
  private SealChecks() {}

  /** Accepts a non-empty, trimmed library version, else fails with {@code INVALID_VALUE}. */
  static String checkVersion(String libraryVersion) {
    Objects.requireNonNull(libraryVersion, "libraryVersion");
    if (libraryVersion.isBlank() || !libraryVersion.strip().equals(libraryVersion)) {
      throw new InvalidValueException(
          "library version", libraryVersion, "must be a non-empty trimmed string");
    }
    return libraryVersion;
  }

  /** Two providers with one id. */
  static LoopxException duplicateProvider(ProviderEntry earlier, ProviderEntry p) {
    return Conflicts.conflict(
        "duplicate provider `" + p.id() + "`", earlier.describe(), p.describe());
  }

  /** A capability whose provider is not registered. */
  static LoopxException unknownOwner(CapabilityEntry c) {
    return Conflicts.conflict(
        "capability `" + c.id() + "` names unknown provider `" + c.providerId() + "`");
  }

  /** Two capabilities with one id, with the providers that claim them. */
  static LoopxException duplicateCapability(
      CapabilityEntry c, ProviderEntry earlierOwner, ProviderEntry owner) {
    return Conflicts.conflict(
        "duplicate capability `" + c.id() + "`", earlierOwner.describe(), owner.describe());
  }

  /** Fails if a capability's origin differs from its provider's. */
  static void checkSameOrigin(CapabilityEntry c, ProviderEntry owner) {
    if (c.origin() != owner.origin()) {
      throw Conflicts.conflict(
          "capability `"
              + c.id()
              + "` has origin "
              + c.origin().wireName()
              + " but its provider `"
              + owner.id()
              + "` has origin "
              + owner.origin().wireName());
    }
  }

  /** An implementation whose provider is not registered. */
  static LoopxException unknownImplementer(ImplementationEntry i) {
    return Conflicts.conflict(
        "implementation of `"
            + i.capabilityId()
            + "` names unknown provider `"
            + i.providerId()
            + "`");
  }

  /** An implementation of a capability that is not registered. */
  static LoopxException unknownCapability(ImplementationEntry i, ProviderEntry implementer) {
    return Conflicts.conflict(
        implementer.describe() + " implements unknown capability `" + i.capabilityId() + "`");
  }

  /** A second implementation of one capability by one provider. */
  static LoopxException duplicateImplementation(ImplementationEntry i, ProviderEntry implementer) {
    return Conflicts.conflict(
        "duplicate implementation of capability `"
            + i.capabilityId()
            + "`: "
            + implementer.describe()
            + " implements it twice");
  }

  /**
   * Fails unless a built-in's implementation has an in-process handler and an extension's has none.
   */
  static void checkHandlerMatchesOrigin(ImplementationEntry i, ProviderEntry implementer) {
    boolean builtin = implementer.origin() == Origin.BUILTIN;
    if (builtin != i.inProcess().isPresent()) {
      throw Conflicts.conflict(
          implementer.describe()
              + (builtin
                  ? " implements `" + i.capabilityId() + "` without an in-process provider"
                  : " cannot implement `" + i.capabilityId() + "` in process"));
    }
  }
}
