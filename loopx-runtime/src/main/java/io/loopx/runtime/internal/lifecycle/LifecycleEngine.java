package io.loopx.runtime.internal.lifecycle;

import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.Mode;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.internal.catalog.CatalogPublisher;
import io.loopx.runtime.internal.identity.RuntimeResolver;
import io.loopx.runtime.internal.manifest.AccessRoots;
import io.loopx.runtime.internal.observe.Observer;
import io.loopx.runtime.internal.run.ProviderLaunch;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ActivationStore;
import java.nio.file.FileSystem;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Applies lifecycle commands: one read of the state, the command's preconditions, the observations
 * (and, when executing, probes) of its targets, the plan, then (executing) one compare-and-set
 * write of its changes. A failure is raised after its changes were written (a failed enable revokes
 * the probed identity). Thread-safe (immutable; the store serialises writes).
 */
public final class LifecycleEngine {
  private final ActivationStore store;
  private final Prober prober;
  private final CatalogPublisher catalog;
  private final RuntimeResolver resolver;
  private final Observer observer;
  private final ProviderLaunch providers;
  private final ProviderLaunch standaloneProviders;

  /** Creates the engine over {@code store}, checking candidates against {@code catalog}. */
  public LifecycleEngine(
      ActivationStore store,
      RuntimeResolver resolver,
      ProviderLaunch providers,
      FileSystem fileSystem,
      CatalogPublisher catalog) {
    this(store, resolver, providers, fileSystem, catalog, Observer.silent());
  }

  /** As above, reporting executed writes, doctor results and failures to {@code observer}. */
  public LifecycleEngine(
      ActivationStore store,
      RuntimeResolver resolver,
      ProviderLaunch providers,
      FileSystem fileSystem,
      CatalogPublisher catalog,
      Observer observer) {
    this(store, resolver, providers, fileSystem, catalog, observer, AccessRoots.NONE);
  }

  /**
   * As above; the doctor refuses a revision whose {@code runtime.access} names a root that {@code
   * accessRoots} does not map ({@code access_root_unknown}), before any probe.
   */
  public LifecycleEngine(
      ActivationStore store,
      RuntimeResolver resolver,
      ProviderLaunch providers,
      FileSystem fileSystem,
      CatalogPublisher catalog,
      Observer observer,
      AccessRoots accessRoots) {
    this(
        store,
        resolver,
        providers,
        resolver,
        providers,
        fileSystem,
        catalog,
        observer,
        accessRoots);
  }

  /**
   * As above, with standalone extensions (no {@code [[provides]]} or {@code [[implements]]})
   * resolved by {@code standaloneResolver} and probed through {@code standaloneProviders}: the side
   * their runs use, isolated by default (docs/process.md#isolation). Both resolvers must share one
   * identity cache; lifecycle commits retire the warm workers of both launch paths.
   */
  public LifecycleEngine(
      ActivationStore store,
      RuntimeResolver resolver,
      ProviderLaunch providers,
      RuntimeResolver standaloneResolver,
      ProviderLaunch standaloneProviders,
      FileSystem fileSystem,
      CatalogPublisher catalog,
      Observer observer,
      AccessRoots accessRoots) {
    this.store = store;
    this.prober =
        new Prober(
            new Prober.Side(resolver, providers),
            new Prober.Side(standaloneResolver, standaloneProviders),
            fileSystem,
            accessRoots);
    this.catalog = catalog;
    this.resolver = resolver;
    this.observer = observer;
    this.providers = providers;
    this.standaloneProviders = standaloneProviders;
  }

  /** Runs {@code commit} ordered with the warm workers' checks of both launch paths. */
  private <T> T ordered(Supplier<T> commit) {
    return standaloneProviders == providers
        ? providers.ordered(commit)
        : providers.ordered(() -> standaloneProviders.ordered(commit));
  }

  /** Applies {@code step} to each distinct launch path. */
  private void eachLaunch(Consumer<ProviderLaunch> step) {
    step.accept(providers);
    if (standaloneProviders != providers) {
      step.accept(standaloneProviders);
    }
  }

  /**
   * Applies {@code command}; a preview changes nothing and runs no provider code. The host's call
   * observers see it as one {@code loopx.lifecycle} call, and each doctor evaluation of an executed
   * command as a {@code loopx.doctor} call inside it.
   */
  public <R extends Receipt> R apply(LifecycleCommand<R> command, Mode mode) {
    if (!observer.observesCalls()) {
      return applyReported(command, mode);
    }
    return observer.lifecycle(
        command.operation(), command.extensionId(), mode, () -> applyReported(command, mode));
  }

  private <R extends Receipt> R applyReported(LifecycleCommand<R> command, Mode mode) {
    try {
      return applyOnce(command, mode);
    } catch (LoopxException e) {
      observer.lifecycleFailed(command.operation(), mode, e);
      throw e;
    } finally {
      resolver.cache().ifPresent(c -> c.flush());
    }
  }

  private <R extends Receipt> R applyOnce(LifecycleCommand<R> command, Mode mode) {
    ActivationState state = store.read();
    List<Target> targets = command.targets(state, mode);
    // Install and upgrade fail closed when the candidate would conflict with the catalog.
    command.candidate().ifPresent(m -> catalog.checkCandidate(state, m));
    Map<ExtensionId, Observation> observed = new HashMap<>();
    Map<ExtensionId, Duration> took = new HashMap<>();
    boolean batch = command instanceof LifecycleCommand.DoctorAll;
    int index = 0;
    for (Target t : targets) {
      if (batch && t.probe()) {
        observer.progress(++index, targets.size(), t.id());
      }
      long start = System.nanoTime();
      observed.put(t.id(), observe(command.operation(), t, mode));
      took.put(t.id(), Duration.ofNanos(System.nanoTime() - start));
    }
    LifecyclePlan<R> plan = command.plan(state, mode, observed);
    if (mode.executes()) {
      var packets = Observer.packets(plan.receipt(), plan.failure());
      var results = Observer.doctorResults(command.operation(), packets, took);
      if (plan.changes().isEmpty()) {
        observer.publish(results);
      } else {
        // The matching registry generation is published by the next reader (registry(), dispatch,
        // catalog), which re-reads the state anyway: several writes in a row compose it once.
        // Warm workers are bound to what was active: a lifecycle change retires them (every
        // written entry: disable and uninstall probe nothing, so they have no targets); an
        // uninstall also forgets the extension's failed worker starts. The commit and the retires
        // are ordered with the workers' checks: no request frame is written in between.
        observer.commit(
            store,
            command.operation(),
            plan.changes(),
            Observer.statuses(packets),
            results,
            write ->
                ordered(
                    () -> {
                      ActivationState written = write.get();
                      eachLaunch(p -> targets.forEach(t -> p.retireWorkers(t.id())));
                      for (var change : plan.changes()) {
                        if (change.replacement().isEmpty()) {
                          eachLaunch(p -> p.forgetWorkers(change.id()));
                        } else {
                          eachLaunch(p -> p.retireWorkers(change.id()));
                        }
                      }
                      return written;
                    }));
      }
      // An executed probe that reported ready ends the workers' provider_unavailable.
      for (var packet : packets) {
        if (packet.status() == DoctorStatus.READY) {
          eachLaunch(p -> p.workersReady(packet.extensionId()));
        }
      }
    }
    if (plan.failure().isPresent()) {
      throw plan.failure().get();
    }
    return plan.receipt().orElseThrow();
  }

  /**
   * Observes {@code t}; for an executed command, with observers, as one {@code loopx.doctor} call
   * whose outcome is the status of the packet the ladder makes of it (the plan makes the same one:
   * an executed command probes exactly the targets whose extension the ladder sees enabled).
   */
  private Observation observe(String operation, Target t, Mode mode) {
    if (!mode.executes() || !observer.observesCalls()) {
      return prober.observe(t);
    }
    return observer.doctor(
        operation,
        t.id(),
        t.manifest().version(),
        () -> prober.observe(t),
        o -> DoctorLadder.evaluate(t.manifest(), t.probe(), o.runtime(), o.probe()));
  }
}
