package io.loopx.runtime.internal.catalog;

import io.loopx.api.ExtensionId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.registry.CapabilityRegistry;
import io.loopx.registry.InstalledExtension;
import io.loopx.registry.RegistryAssembly;
import io.loopx.registry.RegistryGeneration;
import io.loopx.registry.RegistryHolder;
import io.loopx.runtime.internal.lifecycle.Freshness;
import io.loopx.runtime.internal.state.ExtensionRecords;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import io.loopx.runtime.state.ExtensionRecord;
import io.loopx.runtime.state.RevisionSnapshot;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
    Published last = Objects.requireNonNull(published.get(), "published"); // never set to null
    if (last.state().equals(state) && last.fresh().equals(fresh)) {
      return last.generation();
    }
    RegistryGeneration next = holder.publish(compose(state, fresh, List.of()));
    published.set(new Published(state, fresh, next));
    return next;
  }

  /**
   * Returns a catalog of the current state that also holds declaration-only manifests; an installed
   * extension replaces a declaration with the same id.
   */
  public CapabilityRegistry withDeclarations(List<ExtensionManifest> declarations) {
    ActivationState state = store.read();
    return compose(state, freshness.of(state), declarations);
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
