package io.loopx.registry;

import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.ProtocolId;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.Implementation;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.BuiltinProvider;
import io.loopx.api.spi.Origin;
import io.loopx.api.spi.ProviderState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Collects the inputs of one registry generation and assembles them, in one pass, into a sealed
 * {@link CapabilityRegistry}. Obtain one with {@link CapabilityRegistry#assembly(String)}.
 *
 * <p>Inputs, composed in this order whatever order they were added in (SPEC §3): built-in
 * contributions ({@link #addBuiltin}), declaration-only manifests ({@link #declare}: state {@code
 * declared=true, installed=enabled=ready=false}, nothing executed), installed extensions ({@link
 * #install}, sorted by id). An installed extension replaces a declaration-only manifest with the
 * same id. Adding an input only records it; no contribution code runs before {@link #seal()}.
 *
 * <p>{@link #seal()} asks each contribution for its {@link BuiltinContribution#id() id} and {@link
 * BuiltinContribution#providerId() provider id}, then calls each {@code register} in turn with a
 * fresh {@link io.loopx.api.spi.RegistrationContext} bound to that provider. A context accepts
 * writes only while its own {@code register} call runs. Then the extensions are composed and the
 * whole graph is validated. Any failure discards the assembly: nothing is published, every context
 * rejects further writes, and the assembly cannot be sealed again. Failures:
 *
 * <ul>
 *   <li>{@code CONTRIBUTION_FAILED}, naming the contribution: its {@code id()}, {@code
 *       providerId()} or {@code register} threw, its id is not lower-kebab-case, or it misused a
 *       closed context;
 *   <li>{@code CATALOG_CONFLICT}, naming both claimants: duplicate contribution id, provider id
 *       (also an extension id equal to a built-in provider id), capability id (also across
 *       built-ins and extensions), or (capability, provider) implementation; two different
 *       manifests for one extension id in the same role; an implementation of an unknown
 *       capability; a capability whose origin differs from its provider's. A conflict detected
 *       during a contribution's {@code register} fails the assembly even if the contribution
 *       catches it.
 *   <li>{@code REGISTRY_SEALED}: any add or seal after {@code seal()} started.
 * </ul>
 *
 * <p>Identical repeats are no-ops: the same capability or implementation registered twice by the
 * same provider, the same manifest declared twice, the same installed extension added twice.
 *
 * <p>An installed extension whose snapshot's {@code requires_loopx_api} rejects this runtime is
 * reported with {@code ready=false}, whatever the caller passed: it can never dispatch.
 *
 * <p><b>Thread safety:</b> all methods are safe to call from several threads, but an assembly is
 * meant to be filled and sealed by one thread. <b>Nulls:</b> no argument may be null. Used by hosts
 * and the runtime; not for subclassing.
 */
public final class RegistryAssembly {
  private static final Pattern CONTRIBUTION_ID = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
  private static final int CONTRIBUTION_ID_MAX = 48;

  private enum Phase {
    OPEN,
    ASSEMBLING,
    SEALED,
    DISCARDED
  }

  private final Object lock = new Object();
  private final String libraryVersion;

  // guarded by lock
  private Phase phase = Phase.OPEN;
  private final List<BuiltinContribution> contributions = new ArrayList<>();
  private final List<ExtensionManifest> declared = new ArrayList<>();
  private final List<InstalledExtension> installed = new ArrayList<>();
  private final List<BoundContext> contexts = new ArrayList<>();
  private final Map<ProviderId, ProviderEntry> builtinProviders = new LinkedHashMap<>();
  private final Map<CapabilityId, CapabilityEntry> stagedCapabilities = new LinkedHashMap<>();
  private final Map<List<Object>, ImplementationEntry> stagedImplementations =
      new LinkedHashMap<>();
  private @Nullable LoopxException recordedFailure;

  RegistryAssembly(String libraryVersion) {
    this.libraryVersion = SealChecks.checkVersion(libraryVersion);
  }

  /** Adds a built-in contribution; contributions register in the order added. Returns this. */
  public RegistryAssembly addBuiltin(BuiltinContribution contribution) {
    Objects.requireNonNull(contribution, "contribution");
    synchronized (lock) {
      requireOpen("add a built-in contribution");
      contributions.add(contribution);
    }
    return this;
  }

  /** Adds built-in contributions in list order. Returns this. */
  public RegistryAssembly addBuiltins(List<? extends BuiltinContribution> contributions) {
    List.copyOf(contributions).forEach(this::addBuiltin);
    return this;
  }

  /** Adds a declaration-only manifest; they compose in the order added. Returns this. */
  public RegistryAssembly declare(ExtensionManifest manifest) {
    Objects.requireNonNull(manifest, "manifest");
    synchronized (lock) {
      requireOpen("declare an extension manifest");
      declared.add(manifest);
    }
    return this;
  }

  /** Adds an installed extension; they compose sorted by id. Returns this. */
  public RegistryAssembly install(InstalledExtension extension) {
    Objects.requireNonNull(extension, "extension");
    synchronized (lock) {
      requireOpen("add an installed extension");
      installed.add(extension);
    }
    return this;
  }

  /**
   * Runs the one assembly pass and returns the sealed generation; see the class documentation for
   * the order and the failures. Callable once.
   */
  public CapabilityRegistry seal() {
    List<BuiltinContribution> contributionsCopy;
    List<ExtensionManifest> declaredCopy;
    List<InstalledExtension> installedCopy;
    synchronized (lock) {
      requireOpen("seal");
      phase = Phase.ASSEMBLING;
      contributionsCopy = List.copyOf(contributions);
      declaredCopy = List.copyOf(declared);
      installedCopy = List.copyOf(installed);
    }
    boolean sealed = false;
    try {
      CapabilityRegistry registry = assemble(contributionsCopy, declaredCopy, installedCopy);
      sealed = true;
      return registry;
    } finally {
      synchronized (lock) {
        phase = sealed ? Phase.SEALED : Phase.DISCARDED;
        contexts.forEach(BoundContext::close);
        contexts.clear();
        builtinProviders.clear();
        stagedCapabilities.clear();
        stagedImplementations.clear();
      }
    }
  }

  private void requireOpen(String action) {
    switch (phase) {
      case OPEN -> {}
      case ASSEMBLING ->
          throw Conflicts.sealed("cannot " + action + ": the registry assembly is being sealed");
      case SEALED ->
          throw Conflicts.sealed("cannot " + action + ": the registry assembly is sealed");
      case DISCARDED ->
          throw Conflicts.sealed(
              "cannot " + action + ": the registry assembly was discarded after a failure");
    }
  }

  private record Admitted(BuiltinContribution contribution, String id, ProviderId providerId) {}

  private CapabilityRegistry assemble(
      List<BuiltinContribution> contributionsCopy,
      List<ExtensionManifest> declaredCopy,
      List<InstalledExtension> installedCopy) {
    List<Admitted> admitted = admit(contributionsCopy);
    for (Admitted a : admitted) {
      ProviderEntry provider =
          new ProviderEntry(
              a.providerId(),
              Origin.BUILTIN,
              ProviderState.BUILTIN,
              libraryVersion,
              Optional.empty(),
              Optional.of(a.id()));
      synchronized (lock) {
        builtinProviders.put(a.providerId(), provider);
      }
    }
    for (Admitted a : admitted) {
      runRegistration(a);
    }
    ArrayList<ProviderEntry> providers;
    ArrayList<CapabilityEntry> capabilities;
    ArrayList<ImplementationEntry> implementations;
    synchronized (lock) {
      providers = new ArrayList<>(builtinProviders.values());
      capabilities = new ArrayList<>(stagedCapabilities.values());
      implementations = new ArrayList<>(stagedImplementations.values());
    }
    composeExtensions(declaredCopy, installedCopy, providers, capabilities, implementations);
    return CapabilityRegistry.of(libraryVersion, providers, capabilities, implementations);
  }

  private static List<Admitted> admit(List<BuiltinContribution> contributionsCopy) {
    List<Admitted> admitted = new ArrayList<>();
    Map<String, Admitted> byId = new HashMap<>();
    Map<ProviderId, Admitted> byProvider = new HashMap<>();
    for (BuiltinContribution c : contributionsCopy) {
      String type = c.getClass().getName();
      String id;
      try {
        id = Objects.requireNonNull(c.id(), "id()");
      } catch (RuntimeException | LinkageError | AssertionError e) {
        throw Conflicts.contributionFailed(
            "built-in contribution " + type + " failed to report its id: " + Conflicts.describe(e),
            e);
      }
      if (id.isEmpty()
          || id.length() > CONTRIBUTION_ID_MAX
          || !CONTRIBUTION_ID.matcher(id).matches()) {
        throw new LoopxException(
            ErrorKind.CONTRIBUTION_FAILED,
            "built-in contribution "
                + type
                + " has an invalid id `"
                + id
                + "`: must be 1..48 characters of lower-kebab-case");
      }
      ProviderId providerId;
      try {
        providerId = Objects.requireNonNull(c.providerId(), "providerId()");
      } catch (RuntimeException | LinkageError | AssertionError e) {
        throw Conflicts.contributionFailed(
            "built-in contribution `"
                + id
                + "` failed to report its provider id: "
                + Conflicts.describe(e),
            e);
      }
      Admitted a = new Admitted(c, id, providerId);
      Admitted sameId = byId.putIfAbsent(id, a);
      if (sameId != null) {
        throw Conflicts.conflict(
            "duplicate built-in contribution id `" + id + "`",
            sameId.contribution().getClass().getName(),
            type);
      }
      Admitted sameProvider = byProvider.putIfAbsent(providerId, a);
      if (sameProvider != null) {
        throw Conflicts.conflict(
            "duplicate provider `" + providerId + "`",
            "built-in contribution `" + sameProvider.id() + "`",
            "built-in contribution `" + id + "`");
      }
      admitted.add(a);
    }
    return admitted;
  }

  private void runRegistration(Admitted a) {
    BoundContext context = new BoundContext(this, a.providerId(), a.id());
    synchronized (lock) {
      contexts.add(context);
    }
    Throwable thrown = null;
    try {
      a.contribution().register(context);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      thrown = t;
    } finally {
      synchronized (lock) {
        context.close();
      }
    }
    LoopxException recorded;
    synchronized (lock) {
      recorded = recordedFailure;
    }
    if (recorded != null && recorded.kind() == ErrorKind.CATALOG_CONFLICT) {
      throw new LoopxException(
          ErrorKind.CATALOG_CONFLICT,
          recorded.getMessage() + " (while registering built-in contribution `" + a.id() + "`)",
          recorded);
    }
    Throwable failure = recorded != null ? recorded : thrown;
    if (failure != null) {
      throw Conflicts.contributionFailed(
          "built-in contribution `"
              + a.id()
              + "` failed during registration: "
              + Conflicts.describe(failure),
          failure);
    }
  }

  /** Stages a capability written through {@code context}; called by {@link BoundContext}. */
  void stageCapability(BoundContext context, ProvidedCapability capability) {
    synchronized (lock) {
      requireWritable(context);
      Objects.requireNonNull(capability, "capability");
      CapabilityEntry entry = new CapabilityEntry(capability, Origin.BUILTIN, context.providerId());
      CapabilityEntry earlier = stagedCapabilities.putIfAbsent(capability.id(), entry);
      if (earlier == null) {
        return;
      }
      if (!earlier.providerId().equals(context.providerId())) {
        throw record(
            Conflicts.conflict(
                "duplicate capability `" + capability.id() + "`",
                builtinProviders.get(earlier.providerId()).describe(),
                builtinProviders.get(context.providerId()).describe()));
      }
      if (!earlier.equals(entry)) {
        throw record(
            Conflicts.conflict(
                "conflicting capability `" + capability.id() + "`",
                builtinProviders.get(context.providerId()).describe(),
                "the same provider with a different descriptor"));
      }
    }
  }

  /** Stages an implementation written through {@code context}; called by {@link BoundContext}. */
  void stageImplementation(
      BoundContext context,
      CapabilityId capabilityId,
      ProtocolId protocol,
      BuiltinProvider handler) {
    synchronized (lock) {
      requireWritable(context);
      Objects.requireNonNull(capabilityId, "capabilityId");
      Objects.requireNonNull(protocol, "protocol");
      Objects.requireNonNull(handler, "provider");
      List<Object> key = List.of(capabilityId, context.providerId());
      ImplementationEntry entry =
          new ImplementationEntry(
              capabilityId, protocol, context.providerId(), Optional.of(handler));
      ImplementationEntry earlier = stagedImplementations.putIfAbsent(key, entry);
      if (earlier == null) {
        return;
      }
      if (!earlier.protocol().equals(protocol) || earlier.inProcess().orElseThrow() != handler) {
        String what =
            earlier.protocol().equals(protocol)
                ? "another in-process provider for protocol `" + protocol + "`"
                : "protocol `" + protocol + "` instead of `" + earlier.protocol() + "`";
        throw record(
            Conflicts.conflict(
                "duplicate implementation of capability `" + capabilityId + "`",
                builtinProviders.get(context.providerId()).describe(),
                "the same provider with " + what));
      }
    }
  }

  private void requireWritable(BoundContext context) {
    if (context.isOpen()) {
      return;
    }
    LoopxException e =
        Conflicts.sealed(
            "registration context of provider `"
                + context.providerId()
                + "` (contribution `"
                + context.contributionId()
                + "`) is closed: "
                + (phase == Phase.ASSEMBLING
                    ? "its contribution's register call has returned"
                    : "the registry assembly is "
                        + (phase == Phase.SEALED ? "sealed" : "discarded")));
    if (phase == Phase.ASSEMBLING) {
      record(e);
    }
    throw e;
  }

  private LoopxException record(LoopxException e) {
    if (recordedFailure == null) {
      recordedFailure = e;
    }
    return e;
  }

  private void composeExtensions(
      List<ExtensionManifest> declaredCopy,
      List<InstalledExtension> installedCopy,
      ArrayList<ProviderEntry> providers,
      ArrayList<CapabilityEntry> capabilities,
      ArrayList<ImplementationEntry> implementations) {
    Map<ExtensionId, ExtensionManifest> declaredById = new LinkedHashMap<>();
    for (ExtensionManifest m : declaredCopy) {
      ExtensionManifest earlier = declaredById.putIfAbsent(m.id(), m);
      if (earlier != null && !earlier.equals(m)) {
        throw Conflicts.conflict(
            "duplicate provider `" + m.id() + "`",
            "declared extension manifest revision " + earlier.revision(),
            "declared extension manifest revision " + m.revision());
      }
    }
    Map<ExtensionId, InstalledExtension> installedById = new TreeMap<>();
    for (InstalledExtension e : installedCopy) {
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
