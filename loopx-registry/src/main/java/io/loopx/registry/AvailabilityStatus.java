package io.loopx.registry;

import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The status word of a {@link ProviderAvailability} and the {@code next_action} it implies
 * (docs/contract/registry.md). See {@link CapabilityRegistry#availability} for which input
 * condition yields which status.
 *
 * <p>Used by hosts and the runtime, never implemented; immutable and thread-safe. No method returns
 * null.
 */
@API(status = API.Status.STABLE, since = "1.0")
public enum AvailabilityStatus {
  /** Exactly one ready provider was selected; no next action. */
  READY(null),
  /** The named provider is unknown or only declared. */
  EXTENSION_NOT_INSTALLED("install_extension"),
  /**
   * The selected provider's snapshot rejects this runtime's API version, or it does not implement
   * the capability with the protocol.
   */
  EXTENSION_INCOMPATIBLE("install_compatible_extension"),
  /** The selected provider is installed but disabled. */
  EXTENSION_DISABLED("enable_extension"),
  /** The selected provider is enabled but its doctor proof is not fresh. */
  EXTENSION_DOCTOR_NOT_READY("run_extension_doctor"),
  /** No provider was named and more than one is ready. */
  EXTENSION_PROVIDER_AMBIGUOUS("select_extension_id"),
  /** No provider was named and no installed provider implements the capability and protocol. */
  EXTENSION_PROVIDER_NOT_INSTALLED("install_or_select_extension"),
  /** No provider was named and several installed providers implement it, none of them ready. */
  EXTENSION_PROVIDER_NOT_READY("select_or_repair_extension"),
  /** The caller could not read the activation state. */
  EXTENSION_STATE_UNAVAILABLE("repair_extension_state");

  private final @Nullable String nextAction;

  AvailabilityStatus(@Nullable String nextAction) {
    this.nextAction = nextAction;
  }

  /** Returns the snake_case status word, e.g. {@code extension_disabled}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Returns the {@code next_action} word, empty for {@link #READY}. */
  public Optional<String> nextAction() {
    return Optional.ofNullable(nextAction);
  }
}
