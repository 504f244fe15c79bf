package io.loopx.registry;

import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.BuiltinProvider;
import io.loopx.api.spi.Origin;
import io.loopx.api.spi.ProviderState;
import io.loopx.registry.ContributionAdmission.Admitted;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Collects the inputs of one registry generation and assembles them, in one pass, into a sealed
 * {@link CapabilityRegistry}:
 *
 * <pre>{@code
 * CapabilityRegistry registry = CapabilityRegistry.assembly(libraryVersion)
 *     .addBuiltin(new MyHostCatalog())
 *     .seal();
 * }</pre>
 *
 * <p>Inputs are composed in the contract's order whatever order they were added in (built-ins,
 * declaration-only manifests, installed extensions); no contribution code runs before {@link
 * #seal()}. A failed seal ({@code contribution_failed}, {@code catalog_conflict}, {@code
 * registry_sealed}) discards the assembly and publishes nothing; identical repeats are no-ops. The
 * rules are in docs/contract/registry.md#assembly. Safe to call from several threads, meant to be
 * filled and sealed by one; no argument may be null.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class RegistryAssembly {
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
  private final BuiltinStaging staging = new BuiltinStaging();
  private @Nullable LoopxException recordedFailure;

  RegistryAssembly(String libraryVersion) {
    this.libraryVersion = SealChecks.checkVersion(libraryVersion);
  }

  /** Adds a built-in contribution; contributions register in the order added. Returns this. */
  public RegistryAssembly addBuiltin(BuiltinContribution contribution) {
    return add(contributions, contribution, "contribution", "add a built-in contribution");
  }

  /** Adds built-in contributions in list order. Returns this. */
  public RegistryAssembly addBuiltins(List<? extends BuiltinContribution> contributions) {
    List.copyOf(contributions).forEach(this::addBuiltin);
    return this;
  }

  /** Adds a declaration-only manifest; they compose in the order added. Returns this. */
  public RegistryAssembly declare(ExtensionManifest manifest) {
    return add(declared, manifest, "manifest", "declare an extension manifest");
  }

  /** Adds an installed extension; they compose sorted by id. Returns this. */
  public RegistryAssembly install(InstalledExtension extension) {
    return add(installed, extension, "extension", "add an installed extension");
  }

  /**
   * Records one input in {@code inputs} (a list guarded by the lock) while the assembly is open.
   */
  private <T> RegistryAssembly add(List<T> inputs, T input, String name, String action) {
    Objects.requireNonNull(input, name);
    synchronized (lock) {
      requireOpen(action);
      inputs.add(input);
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
        staging.clear();
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

  private CapabilityRegistry assemble(
      List<BuiltinContribution> contributionsCopy,
      List<ExtensionManifest> declaredCopy,
      List<InstalledExtension> installedCopy) {
    List<Admitted> admitted = ContributionAdmission.admit(contributionsCopy);
    // The extensions' capabilities join the built-ins' slot table at seal: size it for them now.
    int extensionCapabilities = 0;
    for (ExtensionManifest m : declaredCopy) {
      extensionCapabilities += m.provides().size();
    }
    for (InstalledExtension e : installedCopy) {
      extensionCapabilities += e.manifest().provides().size();
    }
    synchronized (lock) {
      staging.reserve(extensionCapabilities);
    }
    int[] positions = new int[admitted.size()];
    for (int k = 0; k < admitted.size(); k++) {
      Admitted a = admitted.get(k);
      ProviderEntry provider =
          new ProviderEntry(
              a.providerId(),
              Origin.BUILTIN,
              ProviderState.BUILTIN,
              libraryVersion,
              Optional.empty(),
              Optional.of(a.id()));
      synchronized (lock) {
        positions[k] = staging.addProvider(provider);
      }
    }
    for (int k = 0; k < admitted.size(); k++) {
      runRegistration(admitted.get(k), positions[k]);
    }
    BuiltinStaging.Staged staged;
    synchronized (lock) {
      staged = staging.handOff();
    }
    ArrayList<ProviderEntry> providers = new ArrayList<>();
    ArrayList<CapabilityEntry> capabilities = new ArrayList<>();
    ArrayList<ImplementationEntry> implementations = new ArrayList<>();
    ExtensionComposition.compose(
        declaredCopy, installedCopy, providers, capabilities, implementations);
    return CapabilityRegistry.of(libraryVersion, staged, providers, capabilities, implementations);
  }

  private void runRegistration(Admitted a, int position) {
    BoundContext context = new BoundContext(this, a.providerId(), position, a.id());
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
      LoopxException conflict = staging.capability(context.providerId(), capability);
      if (conflict != null) {
        throw record(conflict);
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
      LoopxException conflict =
          staging.implementation(
              context.providerId(), context.position(), capabilityId, protocol, handler);
      if (conflict != null) {
        throw record(conflict);
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
}
