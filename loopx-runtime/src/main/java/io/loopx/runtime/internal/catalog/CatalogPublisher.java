package io.loopx.runtime.internal.catalog;

import io.loopx.api.CapabilityId;
import io.loopx.api.ExtensionId;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.Implementation;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.registry.CapabilityRegistry;
import io.loopx.registry.InstalledExtension;
import io.loopx.registry.RegistryAssembly;
import io.loopx.registry.RegistryGeneration;
import io.loopx.registry.RegistryHolder;
import io.loopx.runtime.internal.identity.Freshness;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Composes the capability catalog from the built-ins and the activation state, and publishes one
 * registry generation per distinct (state, freshness) pair: readers that see the same state share
 * one sealed generation. Thread-safe.
 */
public final class CatalogPublisher {
  private final ActivationStore store;
  private final Freshness freshness;
  private final String version;
  private final List<BuiltinContribution> builtins;
  private final RegistryHolder holder;
  private final AtomicReference<Published> published;
  private final AtomicReference<Candidates> candidates =
      new AtomicReference<>(new Candidates(ActivationState.EMPTY, Map.of()));

  /**
   * Creates the publisher; the built-ins are assembled once now, so a conflicting contribution
   * fails here.
   */
  public CatalogPublisher(
      ActivationStore store,
      Freshness freshness,
      String version,
      List<BuiltinContribution> builtins) {
    this.store = store;
    this.freshness = freshness;
    this.version = version;
    this.builtins = List.copyOf(builtins);
    this.holder = RegistryHolder.of(compose(ActivationState.EMPTY, Map.of(), List.of()));
    this.published =
        new AtomicReference<>(new Published(ActivationState.EMPTY, Map.of(), holder.current()));
  }

  /**
   * Returns the generation matching the current state, publishing a new one when the state or the
   * freshness of a proof changed since the last one.
   */
  public RegistryGeneration current() {
    ActivationState state = store.read();
    Map<ExtensionId, Boolean> fresh = freshness.of(state);
    freshness.flush();
    return publish(state, fresh);
  }

  /**
   * Returns a generation that is current for resolving {@code capability} (and, when named, {@code
   * provider}): the state is read again, but only the freshness of the extensions that implement
   * the capability (and of the named provider) is checked now; the other extensions keep the
   * freshness of the last published generation unless their entry changed. A dispatch resolves only
   * among those candidates, so its outcome is the one a full {@link #current()} would give.
   */
  public RegistryGeneration currentFor(CapabilityId capability, Optional<ProviderId> provider) {
    return currentStateFor(capability, provider).generation();
  }

  /** A state read and the registry generation published for it. */
  public record Current(ActivationState state, RegistryGeneration generation) {}

  /**
   * As {@link #currentFor}, also returning the state the generation was composed from (one store
   * read for both): a dispatch prepares its call on that state and reads the state once more only
   * for the execute-time check.
   */
  public Current currentStateFor(CapabilityId capability, Optional<ProviderId> provider) {
    ActivationState state = store.read();
    return new Current(state, currentFor(state, capability, provider));
  }

  private RegistryGeneration currentFor(
      ActivationState state, CapabilityId capability, Optional<ProviderId> provider) {
    Published last = Objects.requireNonNull(published.get(), "published"); // never set to null
    Candidates candidates = candidates(state);
    Set<ExtensionId> checked = new LinkedHashSet<>(candidates.of(capability));
    provider.map(ExtensionId::of).filter(state.extensions()::containsKey).ifPresent(checked::add);
    if (last.state() == state) {
      Map<ExtensionId, Boolean> changed = new LinkedHashMap<>();
      for (ExtensionId id : checked) {
        boolean fresh = freshness.isFresh(state.installed(id));
        if (!Boolean.valueOf(fresh).equals(last.fresh().get(id))) {
          changed.put(id, fresh);
        }
      }
      freshness.flush();
      if (changed.isEmpty()) {
        return last.generation();
      }
      Map<ExtensionId, Boolean> fresh = new LinkedHashMap<>(last.fresh());
      fresh.putAll(changed);
      return publish(state, fresh);
    }
    Map<ExtensionId, Boolean> fresh = new LinkedHashMap<>();
    for (ExtensionRecord r : state.extensions().values()) {
      Boolean known = last.fresh().get(r.id());
      if (known != null
          && !checked.contains(r.id())
          && r.equals(last.state().extensions().get(r.id()))) {
        fresh.put(r.id(), known);
      } else {
        fresh.put(r.id(), freshness.isFresh(r));
      }
    }
    freshness.flush();
    return publish(state, fresh);
  }

  private RegistryGeneration publish(ActivationState state, Map<ExtensionId, Boolean> fresh) {
    Published last = Objects.requireNonNull(published.get(), "published"); // never set to null
    if (last.state().equals(state) && last.fresh().equals(fresh)) {
      return last.generation();
    }
    RegistryGeneration next = holder.publish(compose(state, fresh, List.of()));
    published.set(new Published(state, fresh, next));
    return next;
  }

  /** The implementers of each capability in one state, computed once per state read. */
  private record Candidates(ActivationState state, Map<CapabilityId, List<ExtensionId>> index) {
    List<ExtensionId> of(CapabilityId capability) {
      return index.getOrDefault(capability, List.of());
    }
  }

  private Candidates candidates(ActivationState state) {
    Candidates known = Objects.requireNonNull(candidates.get(), "candidates");
    if (known.state() == state) {
      return known;
    }
    Map<CapabilityId, List<ExtensionId>> index = new HashMap<>();
    for (ExtensionRecord r : state.extensions().values()) {
      for (Implementation i : r.active().manifest().implementations()) {
        List<ExtensionId> ids = index.computeIfAbsent(i.capabilityId(), k -> new ArrayList<>());
        if (!ids.contains(r.id())) {
          ids.add(r.id());
        }
      }
    }
    Candidates next = new Candidates(state, index);
    candidates.set(next);
    return next;
  }

  /**
   * Returns a catalog of the current state that also holds declaration-only manifests; an installed
   * extension replaces a declaration with the same id.
   */
  public CapabilityRegistry withDeclarations(List<ExtensionManifest> declarations) {
    ActivationState state = store.read();
    Map<ExtensionId, Boolean> fresh = freshness.of(state);
    freshness.flush();
    return compose(state, fresh, declarations);
  }

  /**
   * Checks that installing {@code candidate} over {@code state} keeps the catalog valid.
   *
   * @throws io.loopx.api.LoopxException the registry's conflict error
   */
  public void checkCandidate(ActivationState state, ExtensionManifest candidate) {
    ExtensionRecord record =
        ExtensionRecords.installed(
            RevisionSnapshot.of(candidate, Optional.empty()), Optional.empty());
    compose(state.with(candidate.id(), Optional.of(record)), freshness.of(state), List.of());
  }

  private CapabilityRegistry compose(
      ActivationState state,
      Map<ExtensionId, Boolean> fresh,
      List<ExtensionManifest> declarations) {
    RegistryAssembly assembly = CapabilityRegistry.assembly(version).addBuiltins(builtins);
    for (ExtensionManifest d : declarations) {
      assembly.declare(d);
    }
    for (ExtensionRecord r : state.extensions().values()) {
      assembly.install(
          new InstalledExtension(
              r.active().manifest(),
              r.enabled(),
              r.enabled() && fresh.getOrDefault(r.id(), false)));
    }
    return assembly.seal();
  }

  private record Published(
      ActivationState state, Map<ExtensionId, Boolean> fresh, RegistryGeneration generation) {}
}
