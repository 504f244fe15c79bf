package io.loopx.runtime;

import io.loopx.runtime.internal.catalog.CatalogPublisher;
import io.loopx.runtime.internal.dispatch.CapabilityDispatch;
import io.loopx.runtime.internal.identity.Freshness;
import io.loopx.runtime.internal.identity.IdentityCache;
import io.loopx.runtime.internal.identity.RuntimeResolver;
import io.loopx.runtime.internal.identity.SearchPath;
import io.loopx.runtime.internal.lifecycle.LifecycleEngine;
import io.loopx.runtime.internal.manifest.AccessRoots;
import io.loopx.runtime.internal.observe.Observer;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.internal.run.ProviderLaunch;
import io.loopx.runtime.internal.run.StandaloneRun;
import io.loopx.runtime.internal.run.TraceSource;
import io.loopx.runtime.internal.state.FileActivationStore;
import io.loopx.runtime.internal.state.IdentityCacheFile;
import io.loopx.runtime.internal.worker.Workers;
import io.loopx.runtime.spi.ProcessLauncher;
import io.loopx.runtime.state.ActivationStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * The composition root of one {@link Loopx}: from a builder's settings, the collaborators the
 * facade delegates to, each built once and shared (one identity cache, one observer, one provider
 * launch with its warm workers, and a second one for standalone extensions when they run isolated
 * by default, one catalog publisher).
 */
final class Wiring {
  final Observer observer;
  final ProviderLaunch providers;

  /**
   * Starts the providers of standalone extensions: {@link #providers} itself unless the host set no
   * isolation policy and kept the default launcher (docs/process.md#isolation).
   */
  final ProviderLaunch standaloneProviders;

  final CatalogPublisher catalog;
  final LifecycleEngine lifecycle;
  final StandaloneRun standaloneRun;
  final CapabilityDispatch dispatch;

  Wiring(Loopx.Builder b, ActivationStore store, FileSystem fileSystem) {
    // Checked first, so that a bad mapping fails build() before anything starts (docs/access.md).
    AccessRoots accessRoots =
        AccessRoots.mapped(
            b.accessRoots,
            store instanceof FileActivationStore file
                ? Optional.ofNullable(file.stateFile().toAbsolutePath().getParent())
                : Optional.empty());
    RuntimeEnvironment environment = composedRuntimeEnvironment(b);
    // One identity cache per facade, kept beside a file state (docs/contract/state.md).
    IdentityCache identities =
        store instanceof FileActivationStore file
            ? IdentityCache.persistedIn(
                IdentityCacheFile.in(
                    Objects.requireNonNull(file.stateFile().getParent(), "state directory")))
            : IdentityCache.inMemory();
    ProcessLauncher launcher =
        b.launcher.orElseGet(
            () ->
                OsProcessLauncher.builder()
                    .pidsLimit(b.providerPidsLimit)
                    .isolation(b.isolation.orElse(IsolationPolicy.OFF))
                    .build());
    RuntimeResolver cached = RuntimeResolver.of(environment).withCache(identities);
    RuntimeResolver resolver = cached;
    // Isolated calls run the tool too: its bytes join every runtime identity (docs/process.md).
    if (launcher instanceof OsProcessLauncher os && os.isolator().isPresent()) {
      resolver = resolver.isolatedBy(os.isolator().get());
    }
    this.observer = new Observer(b.listeners, b.observers, b.logger);
    // One trace source: its first failure is logged once per facade, whichever side met it.
    TraceSource trace = new TraceSource(b.traceContext, b.logger);
    this.providers = launchOver(launcher, b, environment, trace, accessRoots);
    // The standalone side (docs/process.md#isolation): a host that set no isolation policy and
    // keeps the default launcher runs standalone extensions (doctor probes and runs) isolated
    // where bubblewrap is usable. Their launcher probes the tool on first use, so a host without
    // standalone extensions never runs it; their identities fold the tool in when it is usable.
    RuntimeResolver standaloneResolver = resolver;
    ProviderLaunch standaloneProviders = providers;
    if (b.isolation.isEmpty() && b.launcher.isEmpty()) {
      OsProcessLauncher isolating =
          OsProcessLauncher.builder()
              .pidsLimit(b.providerPidsLimit)
              .isolation(IsolationPolicy.WHEN_AVAILABLE)
              .build();
      standaloneResolver = cached.isolatedBy(isolating::isolator);
      standaloneProviders = launchOver(isolating, b, environment, trace, accessRoots);
    }
    this.standaloneProviders = standaloneProviders;
    Freshness freshness = new Freshness(resolver, standaloneResolver, fileSystem);
    // Run and dispatch write only to revoke a changed runtime's identity: observed like commands.
    ActivationStore observed = observer.writingThrough(store);
    // Workers of a revision that another process or host disabled, replaced or uninstalled are
    // retired within a second (docs/contract/worker.md#lifecycle-changes,
    // "Changes made elsewhere").
    providers.watchState(store::read);
    if (standaloneProviders != providers) {
      standaloneProviders.watchState(store::read);
    }
    this.catalog = new CatalogPublisher(store, freshness, Loopx.VERSION, b.builtins);
    this.lifecycle =
        new LifecycleEngine(
            store,
            resolver,
            providers,
            standaloneResolver,
            standaloneProviders,
            fileSystem,
            catalog,
            observer,
            accessRoots);
    this.standaloneRun = new StandaloneRun(observed, freshness, standaloneProviders);
    this.dispatch =
        new CapabilityDispatch(
            observed,
            freshness,
            providers,
            b.policy,
            (capability, provider) -> {
              CatalogPublisher.Current current = catalog.currentStateFor(capability, provider);
              return new CapabilityDispatch.Resolvable(
                  current.generation().registry(), current.state());
            });
  }

  /** The launch path over {@code launcher} with the builder's environment, limits and roots. */
  private ProviderLaunch launchOver(
      ProcessLauncher launcher,
      Loopx.Builder b,
      RuntimeEnvironment environment,
      TraceSource trace,
      AccessRoots accessRoots) {
    return new ProviderLaunch(
        launcher,
        b.providerEnvironment.filter(b.hostEnvironment),
        environment.searchPath(),
        b.providerStderrTail,
        observer.workerEvents(),
        b.providerMemoryLimit,
        trace,
        accessRoots);
  }

  /** Retires the warm workers of both launch paths. */
  void close() {
    providers.close();
    if (standaloneProviders != providers) {
      standaloneProviders.close();
    }
  }

  /** Returns the warm workers of both launch paths (capability side first). */
  List<Workers> workers() {
    List<Workers> all = new ArrayList<>();
    providers.workers().ifPresent(all::add);
    if (standaloneProviders != providers) {
      standaloneProviders.workers().ifPresent(all::add);
    }
    return all;
  }

  /**
   * The runtime environment with the one PATH (docs/threat-model.md, P2): the host environment's
   * {@code PATH} when one was given with it, else the runtime environment's search path, composed.
   */
  private static RuntimeEnvironment composedRuntimeEnvironment(Loopx.Builder b) {
    RuntimeEnvironment given = b.runtimeEnvironment;
    String raw = given.searchPath();
    String hostPath = b.hostEnvironment.get("PATH");
    if (b.hostEnvironmentGiven && hostPath != null) {
      raw = hostPath;
    }
    String path = SearchPath.compose(raw, given.javaExecutable().getFileSystem());
    return new RuntimeEnvironment(path, given.javaExecutable(), given.codePath());
  }

  /** This library's version, from the build's {@code loopx.properties}. */
  static String readVersion() {
    try (InputStream in = Loopx.class.getResourceAsStream("loopx.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "0.0.0-unknown");
    } catch (IOException e) {
      return "0.0.0-unknown";
    }
  }
}
