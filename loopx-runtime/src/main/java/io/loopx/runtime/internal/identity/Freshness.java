package io.loopx.runtime.internal.identity;

import io.loopx.api.ExtensionId;
import io.loopx.api.internal.Problems;
import io.loopx.runtime.state.ActivationState;
import io.loopx.runtime.state.ExtensionRecord;
import java.nio.file.FileSystem;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The one doctor-freshness rule (docs/contract/doctor.md): an extension's proof is fresh when its
 * active revision's runtime resolves now, from its saved location, to an identity the proof of that
 * revision covers. Catalog, lifecycle and runs all ask it. Thread-safe (immutable).
 */
@API(status = API.Status.INTERNAL, since = "0.3")
public final class Freshness {
  private final RuntimeResolver resolver;
  private final RuntimeResolver standaloneResolver;
  private final FileSystem fileSystem;

  /** Creates the rule over {@code resolver}, reading saved paths on {@code fileSystem}. */
  public Freshness(RuntimeResolver resolver, FileSystem fileSystem) {
    this(resolver, resolver, fileSystem);
  }

  /**
   * Creates the rule over {@code resolver} for capability providers and {@code standaloneResolver}
   * for standalone extensions (their active manifest declares no {@code [[provides]]} or {@code
   * [[implements]]}): the two differ when the standalone ones run isolated by default
   * (docs/process.md#isolation). Both must share one identity cache.
   */
  public Freshness(
      RuntimeResolver resolver, RuntimeResolver standaloneResolver, FileSystem fileSystem) {
    this.resolver = resolver;
    this.standaloneResolver = standaloneResolver;
    this.fileSystem = fileSystem;
  }

  /** Returns the resolver of {@code record}'s active revision (see the constructor). */
  private RuntimeResolver resolverOf(ExtensionRecord record) {
    return record.active().manifest().isStandalone() ? standaloneResolver : resolver;
  }

  /** Returns the active runtime of {@code record} resolved now, if its proof covers it. */
  public Optional<RuntimeResolution.Resolved> freshRuntime(ExtensionRecord record) {
    return freshRuntime(record, resolverOf(record));
  }

  private Optional<RuntimeResolution.Resolved> freshRuntime(
      ExtensionRecord record, RuntimeResolver using) {
    var runtime = record.active().manifest().runtime();
    if (runtime.isEmpty()) {
      return Optional.empty();
    }
    RuntimeResolution resolution =
        using.resolveSaved(
            runtime.get().launchTarget(),
            record.active().entrypointPath().map(fileSystem::getPath));
    if (resolution instanceof RuntimeResolution.Resolved resolved
        && record.proofCovers(resolved.identity().value())) {
      return Optional.of(resolved);
    }
    return Optional.empty();
  }

  /**
   * Returns whether the active runtime of {@code record}, resolved again now from its saved
   * location, is still {@code before}: same identity, launcher path and file stamps (inode, size,
   * modification and change time). Checked after every provider run (docs/threat-model.md, P2).
   *
   * <p>After a one-shot run every file is hashed again ({@code stampsOnly} false): what ran is
   * compared with bytes read again. After a warm worker's response ({@code stampsOnly} true) the
   * files go through the identity cache: a file whose {@code stat} (inode, size, modification and
   * change time, with the cache's racy-window rule) is unchanged is not hashed again, so a warm
   * request does not pay a hash of the whole runtime. Any write changes the change time, so a
   * changed file is still hashed and compared; what the worker process executes was checked when it
   * started.
   */
  public boolean unchangedSince(
      ExtensionRecord record, RuntimeResolution.Resolved before, boolean stampsOnly) {
    var runtime = record.active().manifest().runtime().orElseThrow();
    RuntimeResolver using = resolverOf(record);
    return before.unchangedSince(
        (stampsOnly ? using : using.uncached())
            .resolveSaved(
                runtime.launchTarget(), record.active().entrypointPath().map(fileSystem::getPath)));
  }

  /**
   * Returns the active runtime of {@code record}, resolved now and covered by its proof.
   *
   * @throws io.loopx.api.LoopxException {@code DOCTOR_STALE}, naming the doctor as next action
   */
  public RuntimeResolution.Resolved requireFresh(ExtensionRecord record) {
    Optional<RuntimeResolution.Resolved> fresh = freshRuntime(record);
    flush();
    return fresh.orElseThrow(() -> Problems.doctorStale(record.id()));
  }

  /** Returns, for every installed extension, whether it is enabled and doctor-fresh now. */
  public Map<ExtensionId, Boolean> of(ActivationState state) {
    Map<ExtensionId, Boolean> fresh = new LinkedHashMap<>();
    // Each shared interpreter examined once per pass; the standalone side's pass is made only when
    // it differs (docs/process.md#isolation).
    RuntimeResolver pass = resolver.forOnePass();
    RuntimeResolver standalonePass =
        standaloneResolver == resolver ? pass : standaloneResolver.forOnePass();
    for (ExtensionRecord r : state.extensions().values()) {
      RuntimeResolver using = r.active().manifest().isStandalone() ? standalonePass : pass;
      fresh.put(r.id(), r.enabled() && freshRuntime(r, using).isPresent());
    }
    return fresh;
  }

  /** Returns whether {@code record} is enabled and doctor-fresh now. */
  public boolean isFresh(ExtensionRecord record) {
    return record.enabled() && freshRuntime(record).isPresent();
  }

  /** Saves the identity cache if this rule's lookups changed it (best effort, never throws). */
  public void flush() {
    resolver.cache().ifPresent(c -> c.flush());
  }
}
