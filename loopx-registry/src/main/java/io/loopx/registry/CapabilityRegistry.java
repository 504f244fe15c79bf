package io.loopx.registry;

import com.google.common.collect.ImmutableList;
import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.spi.Origin;
import io.loopx.api.spi.ProviderState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * One sealed, immutable generation of the capability registry: the providers, capabilities and
 * implementations of built-ins and extensions, composed and validated in one pass by a {@link
 * RegistryAssembly}. A change (install, enable, doctor, ...) builds a new generation; see {@link
 * RegistryHolder}.
 *
 * <p><b>Order</b> (deterministic, SPEC §3 "Composition order"): providers and capabilities list
 * built-ins first, in registration order (contributions in the order added, capabilities in the
 * order each contribution registered them), then declaration-only manifests in the order given
 * (capabilities in manifest order), then installed extensions sorted by id. Implementations follow
 * their provider's position, then registration order. As a set, the catalog does not depend on
 * registration order.
 *
 * <p><b>Thread safety:</b> immutable; every method may be called from any thread. Reads return
 * unmodifiable lists of immutable values, and JSON read models are fresh objects on every call, so
 * no caller can change what another sees. <b>Nulls:</b> no argument may be null, nothing returned
 * is null. Created only by {@link RegistryAssembly#seal()}; not for implementation or subclassing.
 */
public final class CapabilityRegistry {
  private static final ImplementationEntry[] NO_IMPLEMENTATIONS = new ImplementationEntry[0];
  private static final int[] NO_POSITIONS = new int[0];

  private final String libraryVersion;
  private final ImmutableList<ProviderEntry> providers;
  // Never modified after construction; the position of each provider in providers.
  private final Map<ProviderId, Integer> providerPositions;
  // Whether the provider at each position may dispatch (ready and API-compatible).
  private final boolean[] providerDispatchable;
  private final ImmutableList<CapabilityEntry> capabilities;
  // Never modified after construction; one slot per capability, found with one lookup.
  private final Map<CapabilityId, Slot> slots;
  private final ImmutableList<ImplementationEntry> implementations;

  /**
   * A capability with its implementations in catalog order of their providers, and the position of
   * each implementer in {@link #providers} (so that resolution needs one hash lookup). Filled while
   * the generation is validated, then frozen by {@link #freeze}; never changed afterwards.
   */
  private static final class Slot {
    final CapabilityEntry capability;
    ImplementationEntry[] implementations = NO_IMPLEMENTATIONS;
    int[] positions = NO_POSITIONS;
    int size;
    List<ImplementationEntry> view = List.of();

    Slot(CapabilityEntry capability) {
      this.capability = capability;
    }

    boolean implementedBy(ProviderId providerId) {
      for (int k = 0; k < size; k++) {
        if (implementations[k].providerId().equals(providerId)) {
          return true;
        }
      }
      return false;
    }

    void add(ImplementationEntry implementation, int position) {
      if (size == implementations.length) {
        int capacity = Math.max(1, size * 2);
        implementations = Arrays.copyOf(implementations, capacity);
        positions = Arrays.copyOf(positions, capacity);
      }
      implementations[size] = implementation;
      positions[size] = position;
      size++;
    }

    /** Orders by provider position, stable (registration order within one provider); trims. */
    void freeze() {
      if (size == 0) {
        return;
      }
      for (int k = 1; k < size; k++) {
        ImplementationEntry i = implementations[k];
        int pos = positions[k];
        int j = k - 1;
        while (j >= 0 && positions[j] > pos) {
          implementations[j + 1] = implementations[j];
          positions[j + 1] = positions[j];
          j--;
        }
        implementations[j + 1] = i;
        positions[j + 1] = pos;
      }
      if (size < implementations.length) {
        implementations = Arrays.copyOf(implementations, size);
        positions = Arrays.copyOf(positions, size);
      }
      view = List.of(implementations);
    }
  }

  private CapabilityRegistry(
      String libraryVersion,
      ImmutableList<ProviderEntry> providers,
      Map<ProviderId, Integer> providerPositions,
      ImmutableList<CapabilityEntry> capabilities,
      Map<CapabilityId, Slot> slots,
      ImmutableList<ImplementationEntry> implementations) {
    this.libraryVersion = libraryVersion;
    this.providers = providers;
    this.providerPositions = providerPositions;
    this.providerDispatchable = new boolean[providers.size()];
    for (int k = 0; k < providerDispatchable.length; k++) {
      providerDispatchable[k] = dispatchable(providers.get(k));
    }
    this.capabilities = capabilities;
    this.slots = slots;
    this.implementations = implementations;
  }

  /**
   * Starts an assembly for a new generation. Built-in providers report {@code libraryVersion} as
   * their version.
   *
   * @param libraryVersion the LoopX library version, e.g. {@code 0.1.0}; not blank
   */
  public static RegistryAssembly assembly(String libraryVersion) {
    return new RegistryAssembly(libraryVersion);
  }

  /**
   * Validates a complete, composed graph and seals it (package-private: the final integrity check
   * of every assembly, and the only place where duplicates across built-ins and extensions are
   * detected). Fails with {@code CATALOG_CONFLICT} naming both claimants on a duplicate provider,
   * capability or (capability, provider) implementation, a capability whose provider is unknown or
   * has another origin, an implementation of an unknown capability or by an unknown provider, or an
   * in-process handler that does not match the provider's origin. Checks run in this order:
   * providers, then capabilities, then implementations, each in list order.
   */
  static CapabilityRegistry of(
      String libraryVersion,
      List<ProviderEntry> providers,
      List<CapabilityEntry> capabilities,
      List<ImplementationEntry> implementations) {
    checkVersion(libraryVersion);
    ImmutableList<ProviderEntry> providerList = ImmutableList.copyOf(providers);
    Map<ProviderId, Integer> positions = new HashMap<>(capacity(providerList.size()));
    for (int k = 0; k < providerList.size(); k++) {
      ProviderEntry p = providerList.get(k);
      Integer earlier = positions.putIfAbsent(p.id(), k);
      if (earlier != null) {
        throw Conflicts.conflict(
            "duplicate provider `" + p.id() + "`",
            providerList.get(earlier).describe(),
            p.describe());
      }
    }
    ImmutableList<CapabilityEntry> capabilityList = ImmutableList.copyOf(capabilities);
    Map<CapabilityId, Slot> slots = new HashMap<>(capacity(capabilityList.size()));
    Slot[] slotList = new Slot[capabilityList.size()];
    int slotCount = 0;
    PositionCache cache = new PositionCache(positions);
    for (CapabilityEntry c : capabilityList) {
      Integer owner = cache.get(c.providerId());
      if (owner == null) {
        throw Conflicts.conflict(
            "capability `" + c.id() + "` names unknown provider `" + c.providerId() + "`");
      }
      ProviderEntry ownerEntry = providerList.get(owner);
      Slot slot = new Slot(c);
      Slot earlier = slots.putIfAbsent(c.id(), slot);
      if (earlier != null) {
        throw Conflicts.conflict(
            "duplicate capability `" + c.id() + "`",
            providerList.get(positions.get(earlier.capability.providerId())).describe(),
            ownerEntry.describe());
      }
      if (c.origin() != ownerEntry.origin()) {
        throw Conflicts.conflict(
            "capability `"
                + c.id()
                + "` has origin "
                + c.origin().wireName()
                + " but its provider `"
                + ownerEntry.id()
                + "` has origin "
                + ownerEntry.origin().wireName());
      }
      slotList[slotCount++] = slot;
    }
    int count = implementations.size();
    ImplementationEntry[] given = implementations.toArray(NO_IMPLEMENTATIONS);
    int[] implementerPositions = new int[count];
    int[] perProvider = new int[providerList.size() + 1];
    for (int k = 0; k < count; k++) {
      ImplementationEntry i = Objects.requireNonNull(given[k], "implementation");
      Integer position = cache.get(i.providerId());
      if (position == null) {
        throw Conflicts.conflict(
            "implementation of `"
                + i.capabilityId()
                + "` names unknown provider `"
                + i.providerId()
                + "`");
      }
      ProviderEntry implementer = providerList.get(position);
      Slot slot = slots.get(i.capabilityId());
      if (slot == null) {
        throw Conflicts.conflict(
            implementer.describe() + " implements unknown capability `" + i.capabilityId() + "`");
      }
      if (slot.implementedBy(i.providerId())) {
        throw Conflicts.conflict(
            "duplicate implementation of capability `"
                + i.capabilityId()
                + "`: "
                + implementer.describe()
                + " implements it twice");
      }
      boolean builtin = implementer.origin() == Origin.BUILTIN;
      if (builtin != i.inProcess().isPresent()) {
        throw Conflicts.conflict(
            implementer.describe()
                + (builtin
                    ? " implements `" + i.capabilityId() + "` without an in-process provider"
                    : " cannot implement `" + i.capabilityId() + "` in process"));
      }
      slot.add(i, position);
      implementerPositions[k] = position;
      perProvider[position + 1]++;
    }
    for (Slot slot : slotList) {
      slot.freeze();
    }
    // A stable counting sort by provider position: catalog order, then registration order.
    for (int p = 0; p < providerList.size(); p++) {
      perProvider[p + 1] += perProvider[p];
    }
    ImplementationEntry[] ordered = new ImplementationEntry[count];
    for (int k = 0; k < count; k++) {
      ordered[perProvider[implementerPositions[k]]++] = given[k];
    }
    return new CapabilityRegistry(
        libraryVersion,
        providerList,
        positions,
        capabilityList,
        slots,
        ImmutableList.copyOf(ordered));
  }

  /**
   * Provider positions, remembering the last id looked up: entries arrive grouped by provider, and
   * they usually share the provider's id instance, so most lookups need no hashing.
   */
  private static final class PositionCache {
    private final Map<ProviderId, Integer> positions;
    private @Nullable ProviderId lastId;
    private @Nullable Integer lastPosition;

    PositionCache(Map<ProviderId, Integer> positions) {
      this.positions = positions;
    }

    @Nullable Integer get(ProviderId id) {
      if (id != lastId) {
        lastPosition = positions.get(id);
        lastId = id;
      }
      return lastPosition;
    }
  }

  /** Returns a {@link HashMap} capacity that holds {@code size} entries without resizing. */
  private static int capacity(int size) {
    return (int) Math.min((long) size * 4 / 3 + 1, 1 << 30);
  }

  static String checkVersion(String libraryVersion) {
    Objects.requireNonNull(libraryVersion, "libraryVersion");
    if (libraryVersion.isBlank() || !libraryVersion.strip().equals(libraryVersion)) {
      throw new InvalidValueException(
          "library version", libraryVersion, "must be a non-empty trimmed string");
    }
    return libraryVersion;
  }

  /** Returns the library version that built-in providers report. */
  public String libraryVersion() {
    return libraryVersion;
  }

  /** Returns every provider in catalog order (unmodifiable). */
  public List<ProviderEntry> providers() {
    return providers;
  }

  /** Returns the provider with this id, if registered (built-in, declared or installed). */
  public Optional<ProviderEntry> provider(ProviderId id) {
    return Optional.ofNullable(providerOrNull(Objects.requireNonNull(id, "id")));
  }

  /** Returns the capabilities listed in {@code scope}, in catalog order (unmodifiable). */
  public List<CapabilityEntry> capabilities(CatalogScope scope) {
    Objects.requireNonNull(scope, "scope");
    if (scope == CatalogScope.INCLUDE_INTERNAL) {
      return capabilities;
    }
    return capabilities.stream()
        .filter(c -> scope.includes(c.visibility()))
        .collect(ImmutableList.toImmutableList());
  }

  /** Returns the capability with this id, public or internal, if registered. */
  public Optional<CapabilityEntry> capability(CapabilityId id) {
    Slot slot = slots.get(Objects.requireNonNull(id, "id"));
    return slot == null ? Optional.empty() : Optional.of(slot.capability);
  }

  /** Returns every implementation, in catalog order of the implementing providers. */
  public List<ImplementationEntry> implementations() {
    return implementations;
  }

  /**
   * Returns the implementations of a capability, ready or not, in catalog order of their providers;
   * empty for an unknown capability.
   */
  public List<ImplementationEntry> implementations(CapabilityId capabilityId) {
    Slot slot = slots.get(Objects.requireNonNull(capabilityId, "capabilityId"));
    return slot == null ? List.of() : slot.view;
  }

  /**
   * Resolves the one ready provider of {@code capabilityId} over {@code protocol}.
   *
   * <p>Outcomes, in this order: {@link Resolution.UnknownCapability} if the capability is not
   * registered (internal capabilities are registered); {@link Resolution.NoReadyProvider} if no
   * ready provider has an implementation with exactly this protocol; {@link Resolution.Ambiguous}
   * (listing them in catalog order) if more than one has; else {@link
   * Resolution.ResolvedCapability}. Ready means {@code provider_state.ready} (always true for
   * built-ins) and an API-compatible snapshot.
   */
  public Resolution resolve(CapabilityId capabilityId, ProtocolId protocol) {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Slot slot = slots.get(capabilityId);
    if (slot == null) {
      return new Resolution.UnknownCapability(capabilityId, protocol);
    }
    int first = -1;
    List<ProviderId> ambiguous = null;
    for (int k = 0; k < slot.size; k++) {
      if (providerDispatchable[slot.positions[k]]
          && slot.implementations[k].protocol().equals(protocol)) {
        if (first < 0) {
          first = k;
        } else {
          if (ambiguous == null) {
            ambiguous = new ArrayList<>();
            ambiguous.add(slot.implementations[first].providerId());
          }
          ambiguous.add(slot.implementations[k].providerId());
        }
      }
    }
    if (first < 0) {
      return new Resolution.NoReadyProvider(capabilityId, protocol);
    }
    if (ambiguous != null) {
      return new Resolution.Ambiguous(capabilityId, protocol, ambiguous);
    }
    return new Resolution.ResolvedCapability(
        capabilityId, protocol, providers.get(slot.positions[first]), slot.implementations[first]);
  }

  /**
   * Resolves a caller-named provider of {@code capabilityId} over {@code protocol}.
   *
   * <p>Outcomes, first match wins: {@link Resolution.UnknownCapability}; {@link
   * Resolution.ProviderNotInstalled} if no provider has that id or it is declaration-only; {@link
   * Resolution.ProviderIncompatible} if its snapshot's {@code requires_loopx_api} rejects this
   * runtime; {@link Resolution.ProviderDoesNotImplement} if it has no implementation of the
   * capability with exactly this protocol; {@link Resolution.ProviderDisabled}; {@link
   * Resolution.ProviderNotReady} (enabled, doctor proof not fresh); else {@link
   * Resolution.ResolvedCapability}.
   */
  public Resolution resolve(CapabilityId capabilityId, ProtocolId protocol, ProviderId providerId) {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(providerId, "providerId");
    if (!slots.containsKey(capabilityId)) {
      return new Resolution.UnknownCapability(capabilityId, protocol);
    }
    ProviderEntry p = providerOrNull(providerId);
    if (p == null || !p.state().installed()) {
      return new Resolution.ProviderNotInstalled(capabilityId, protocol, providerId);
    }
    if (!p.apiCompatible()) {
      return new Resolution.ProviderIncompatible(
          capabilityId, protocol, providerId, p.manifest().orElseThrow().requiresLoopxApi());
    }
    Optional<ImplementationEntry> implementation = implementation(capabilityId, protocol, p.id());
    if (implementation.isEmpty()) {
      return new Resolution.ProviderDoesNotImplement(capabilityId, protocol, providerId);
    }
    if (!p.state().enabled()) {
      return new Resolution.ProviderDisabled(capabilityId, protocol, providerId);
    }
    if (!p.state().ready()) {
      return new Resolution.ProviderNotReady(capabilityId, protocol, providerId);
    }
    return new Resolution.ResolvedCapability(capabilityId, protocol, p, implementation.get());
  }

  /**
   * Reports whether a provider is available (optional resolution): never throws for a missing,
   * disabled, stale or ambiguous provider, and reports a status word with a {@code next_action}
   * instead. (A caller that cannot read the activation state uses {@link
   * ProviderAvailability#stateUnavailable} for {@code extension_state_unavailable}.)
   *
   * <p>Candidates are installed providers (built-ins included) with an implementation of {@code
   * capabilityId} over exactly {@code protocol}; an unknown capability has none. One provider is
   * evaluated as follows, first match wins: {@code extension_incompatible} if its snapshot's {@code
   * requires_loopx_api} rejects this runtime or it has no such implementation; {@code
   * extension_disabled} if not enabled; {@code extension_doctor_not_ready} if enabled but not
   * ready; else {@code ready}.
   *
   * <p>With a named provider: {@code extension_not_installed} if no provider has that id or it is
   * declaration-only; else the evaluation of that provider. Without one: {@code
   * extension_provider_ambiguous} if more than one candidate is ready; the ready one if exactly one
   * is; the evaluation of the only candidate if there is exactly one; {@code
   * extension_provider_not_installed} if there is none; else ({@code >= 2} candidates, none ready)
   * {@code extension_provider_not_ready}.
   *
   * @param capabilityId the capability
   * @param protocol the protocol
   * @param providerId the provider the caller named, if any
   */
  public ProviderAvailability availability(
      CapabilityId capabilityId, ProtocolId protocol, Optional<ProviderId> providerId) {
    Objects.requireNonNull(capabilityId, "capabilityId");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(providerId, "providerId");
    List<ProviderEntry> candidates = new ArrayList<>();
    Slot slot = slots.get(capabilityId);
    for (int k = 0; slot != null && k < slot.size; k++) {
      ProviderEntry p = providers.get(slot.positions[k]);
      if (slot.implementations[k].protocol().equals(protocol) && p.state().installed()) {
        candidates.add(p);
      }
    }
    List<ProviderId> candidateIds = candidates.stream().map(ProviderEntry::id).toList();
    if (providerId.isPresent()) {
      ProviderEntry p = providerOrNull(providerId.get());
      if (p == null || !p.state().installed()) {
        return new ProviderAvailability(
            AvailabilityStatus.EXTENSION_NOT_INSTALLED,
            capabilityId,
            protocol,
            providerId,
            candidateIds,
            Optional.of(false),
            Optional.of(false),
            Optional.of(false),
            Optional.empty());
      }
      return evaluate(capabilityId, protocol, p, candidateIds);
    }
    List<ProviderAvailability> ready = new ArrayList<>();
    for (ProviderEntry p : candidates) {
      ProviderAvailability r = evaluate(capabilityId, protocol, p, candidateIds);
      if (r.isReady()) {
        ready.add(r);
      }
    }
    if (ready.size() > 1) {
      return group(
          AvailabilityStatus.EXTENSION_PROVIDER_AMBIGUOUS,
          capabilityId,
          protocol,
          candidateIds,
          true);
    }
    if (ready.size() == 1) {
      return ready.get(0);
    }
    if (candidates.size() == 1) {
      return evaluate(capabilityId, protocol, candidates.get(0), candidateIds);
    }
    if (candidates.isEmpty()) {
      return group(
          AvailabilityStatus.EXTENSION_PROVIDER_NOT_INSTALLED,
          capabilityId,
          protocol,
          candidateIds,
          false);
    }
    boolean anyEnabled = candidates.stream().anyMatch(p -> p.state().enabled());
    return new ProviderAvailability(
        AvailabilityStatus.EXTENSION_PROVIDER_NOT_READY,
        capabilityId,
        protocol,
        Optional.empty(),
        candidateIds,
        Optional.of(true),
        Optional.of(anyEnabled),
        Optional.of(false),
        Optional.empty());
  }

  private ProviderAvailability evaluate(
      CapabilityId capabilityId,
      ProtocolId protocol,
      ProviderEntry p,
      List<ProviderId> candidates) {
    Optional<ImplementationEntry> implementation = implementation(capabilityId, protocol, p.id());
    ProviderState s = p.state();
    AvailabilityStatus status;
    if (!p.apiCompatible() || implementation.isEmpty()) {
      status = AvailabilityStatus.EXTENSION_INCOMPATIBLE;
    } else if (!s.enabled()) {
      status = AvailabilityStatus.EXTENSION_DISABLED;
    } else if (!s.ready()) {
      status = AvailabilityStatus.EXTENSION_DOCTOR_NOT_READY;
    } else {
      status = AvailabilityStatus.READY;
    }
    Optional<Resolution.ResolvedCapability> resolved =
        status == AvailabilityStatus.READY
            ? Optional.of(
                new Resolution.ResolvedCapability(capabilityId, protocol, p, implementation.get()))
            : Optional.empty();
    return new ProviderAvailability(
        status,
        capabilityId,
        protocol,
        Optional.of(p.id()),
        candidates,
        Optional.of(true),
        Optional.of(s.enabled()),
        Optional.of(s.ready()),
        resolved);
  }

  private static ProviderAvailability group(
      AvailabilityStatus status,
      CapabilityId capabilityId,
      ProtocolId protocol,
      List<ProviderId> candidates,
      boolean flags) {
    return new ProviderAvailability(
        status,
        capabilityId,
        protocol,
        Optional.empty(),
        candidates,
        Optional.of(flags),
        Optional.of(flags),
        Optional.of(flags),
        Optional.empty());
  }

  private Optional<ImplementationEntry> implementation(
      CapabilityId capabilityId, ProtocolId protocol, ProviderId providerId) {
    return implementations(capabilityId).stream()
        .filter(i -> i.providerId().equals(providerId) && i.protocol().equals(protocol))
        .findFirst();
  }

  private static boolean dispatchable(ProviderEntry p) {
    return p.state().ready() && p.apiCompatible();
  }

  /**
   * Returns a new {@code loopx_capability_catalog_v0} object (SPEC §10 {@code capability list}):
   * {@code ok, schema_version, capabilities:[{id, title, status, origin, visibility, provider_id,
   * provider_state:{declared, installed, enabled, ready}, real_world_anchor, entry_command,
   * next_real_step, implementation_provider_count}], providers:[{id, origin, declared, installed,
   * enabled, ready, version}]}} in catalog order. Every key is always present ({@code null} where
   * it does not apply); every provider is listed, the capabilities of {@code scope} only.
   */
  public ObjectNode catalogJson(CatalogScope scope) {
    return CatalogJson.catalog(this, scope);
  }

  /**
   * Returns a new {@code loopx_capability_detail_v0} object (SPEC §10 {@code capability show}):
   * {@code ok, schema_version, capability:{...the catalog summary fields, kind, provider_version,
   * implementation_providers:[{provider_id, protocol, provider_state}]}}.
   *
   * @throws LoopxException {@code RESOLUTION_FAILED} ({@code unknown capability `<id>`}) when the
   *     capability is not registered, or is internal and {@code scope} is {@link
   *     CatalogScope#PUBLIC}
   */
  public ObjectNode detailJson(CapabilityId capabilityId, CatalogScope scope) {
    Objects.requireNonNull(scope, "scope");
    Slot slot = slots.get(Objects.requireNonNull(capabilityId, "capabilityId"));
    CapabilityEntry c = slot == null ? null : slot.capability;
    if (c == null || !scope.includes(c.visibility())) {
      throw new LoopxException(
          ErrorKind.RESOLUTION_FAILED, "unknown capability `" + capabilityId + "`");
    }
    return CatalogJson.detail(this, c);
  }

  ProviderEntry providerOf(CapabilityEntry c) {
    return providers.get(providerPositions.get(c.providerId()));
  }

  ProviderEntry providerOf(ImplementationEntry i) {
    return providers.get(providerPositions.get(i.providerId()));
  }

  private @Nullable ProviderEntry providerOrNull(ProviderId id) {
    Integer position = providerPositions.get(id);
    return position == null ? null : providers.get(position);
  }

  /** Returns a short summary for debugging: counts of providers, capabilities, implementations. */
  @Override
  public String toString() {
    return "CapabilityRegistry[providers="
        + providers.size()
        + ", capabilities="
        + capabilities.size()
        + ", implementations="
        + implementations.size()
        + "]";
  }
}
