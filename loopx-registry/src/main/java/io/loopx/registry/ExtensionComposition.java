package io.loopx.registry;

import io.loopx.api.ExtensionId;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.Implementation;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.spi.Origin;
import io.loopx.api.spi.ProviderState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Composes the extensions of a generation after the built-ins (package-private;
 * docs/contract/registry.md): declaration-only manifests in the order given, then installed
 * extensions sorted by id; an installed extension replaces a declaration-only manifest with the
 * same id, and one whose snapshot rejects this runtime's API is reported not ready. Fails with
 * {@code CATALOG_CONFLICT} on two different manifests for one extension id in the same role.
 */
final class ExtensionComposition {
  private ExtensionComposition() {}

  /** Appends the extensions' providers, capabilities and implementations to the lists. */
  static void compose(
      List<ExtensionManifest> declared,
      List<InstalledExtension> installed,
      ArrayList<ProviderEntry> providers,
      ArrayList<CapabilityEntry> capabilities,
      ArrayList<ImplementationEntry> implementations) {
    Map<ExtensionId, ExtensionManifest> declaredById = new LinkedHashMap<>();
    for (ExtensionManifest m : declared) {
      ExtensionManifest earlier = declaredById.putIfAbsent(m.id(), m);
      if (earlier != null && !earlier.equals(m)) {
        throw Conflicts.conflict(
            "duplicate provider `" + m.id() + "`",
            "declared extension manifest revision " + earlier.revision(),
            "declared extension manifest revision " + m.revision());
      }
    }
    Map<ExtensionId, InstalledExtension> installedById = new TreeMap<>();
    for (InstalledExtension e : installed) {
      InstalledExtension earlier = installedById.putIfAbsent(e.manifest().id(), e);
      if (earlier != null && !earlier.equals(e)) {
        throw Conflicts.conflict(
            "duplicate provider `" + e.manifest().id() + "`", describe(earlier), describe(e));
      }
    }
    installedById.keySet().forEach(declaredById::remove);

    // Duplicate providers and capabilities (also against the built-ins) are detected once, by the
    // final integrity check of CapabilityRegistry.of, with the same messages.
    List<ProviderEntry> extensionProviders = new ArrayList<>();
    for (ExtensionManifest m : declaredById.values()) {
      extensionProviders.add(extensionProvider(m, ProviderState.DECLARED_ONLY));
    }
    for (InstalledExtension e : installedById.values()) {
      boolean compatible = e.manifest().requiresLoopxApi().admitsCurrent();
      extensionProviders.add(
          extensionProvider(
              e.manifest(), ProviderState.installed(e.enabled(), e.ready() && compatible)));
    }
    int provided = 0;
    int implemented = 0;
    for (ProviderEntry p : extensionProviders) {
      provided += p.manifest().orElseThrow().provides().size();
      implemented += p.manifest().orElseThrow().implementations().size();
    }
    providers.ensureCapacity(providers.size() + extensionProviders.size());
    capabilities.ensureCapacity(capabilities.size() + provided);
    implementations.ensureCapacity(implementations.size() + implemented);
    for (ProviderEntry p : extensionProviders) {
      providers.add(p);
      ExtensionManifest m = p.manifest().orElseThrow();
      for (ProvidedCapability c : m.provides()) {
        capabilities.add(new CapabilityEntry(c, Origin.EXTENSION, p.id()));
      }
      for (Implementation i : m.implementations()) {
        implementations.add(
            new ImplementationEntry(i.capabilityId(), i.protocol(), p.id(), Optional.empty()));
      }
    }
  }

  private static ProviderEntry extensionProvider(ExtensionManifest m, ProviderState state) {
    return new ProviderEntry(
        ProviderId.of(m.id()),
        Origin.EXTENSION,
        state,
        m.version(),
        Optional.of(m),
        Optional.empty());
  }

  private static String describe(InstalledExtension e) {
    return "installed extension manifest revision "
        + e.manifest().revision()
        + " (enabled="
        + e.enabled()
        + ", ready="
        + e.ready()
        + ")";
  }
}
