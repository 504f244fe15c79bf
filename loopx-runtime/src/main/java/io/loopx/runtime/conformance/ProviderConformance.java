package io.loopx.runtime.conformance;

import io.loopx.api.ActionToken;
import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.Mode;
import io.loopx.runtime.RuntimeEnvironment;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The conformance check of one provider package, in any language (docs/contract/verify.md): the
 * provider is launched directly as LoopX launches it, in a scratch working directory with a scratch
 * {@code HOME}, and never installed: no activation state is read or written.
 *
 * <pre>{@code
 * ConformanceReceipt r = ProviderConformance.builder(LoadedManifest.load(path), request)
 *     .binding(ActionToken.of("semantic_preference.recall"), scope)   // [[implements]] only
 *     .build()
 *     .verify();
 * }</pre>
 *
 * <p>Immutable; each {@link #verify} runs the checks anew.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class ProviderConformance {
  private final ConformancePlan.Setup setup;

  private ProviderConformance(ConformancePlan.Setup setup) {
    this.setup = setup;
  }

  /**
   * Starts a check of {@code manifest}'s provider with {@code request}, a request it must answer
   * (without an envelope: the check binds one for an {@code [[implements]]} provider).
   */
  public static Builder builder(LoadedManifest manifest, ObjectNode request) {
    return new Builder(manifest, request);
  }

  /**
   * Returns the checks that {@link #verify} would run, each {@code skipped}, without running any.
   */
  public ConformanceReceipt preview() {
    List<ConformanceCheck> checks = new ArrayList<>();
    ConformancePlan.of(setup)
        .forEach(
            (check, skip) ->
                checks.add(
                    new ConformanceCheckRecord(
                        check.id(),
                        CheckStatus.SKIPPED,
                        skip.map(why -> "not applicable: " + why)
                            .orElse("preview: would " + check.plan()))));
    return new ConformanceReceiptRecord(Mode.PREVIEW, setup.manifest().manifest().id(), checks);
  }

  /**
   * Runs every check in a new temporary scratch directory, deleted afterwards.
   *
   * @throws LoopxException {@code request_invalid} when the package cannot be checked as given: no
   *     {@code [runtime]}, an {@code [[implements]]} provider without a binding (or a standalone
   *     one with), a request that already holds an envelope, or an effect marker that exists before
   *     the first request; {@code io_failed} when the scratch directory cannot be made
   */
  public ConformanceReceipt verify() {
    Path scratch;
    try {
      scratch = Files.createTempDirectory("loopx-verify-");
    } catch (IOException e) {
      throw new LoopxException(
          ErrorKind.IO_FAILED, "cannot create a scratch directory: " + e.getMessage(), e);
    }
    OsProcessLauncher launcher = OsProcessLauncher.builder().isolation(setup.isolation()).build();
    try {
      List<ConformanceCheck> checks = ConformanceRun.run(setup, scratch, launcher);
      return new ConformanceReceiptRecord(
          Mode.EXECUTE,
          setup.manifest().manifest().id(),
          checks,
          setup.isolation() == IsolationPolicy.OFF
              ? Optional.empty()
              : Optional.of(launcher.isolation()));
    } finally {
      delete(scratch);
    }
  }

  private static void delete(Path root) {
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.delete(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, @Nullable IOException e)
                throws IOException {
              Files.delete(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the scratch directory " + root, e);
    }
  }

  /** Builds a {@link ProviderConformance}. Not thread-safe. */
  public static final class Builder {
    private final LoadedManifest manifest;
    private final ObjectNode request;
    private Optional<ConformancePlan.Binding> binding = Optional.empty();
    private Optional<Path> effectMarker = Optional.empty();
    private Map<String, String> hostEnvironment = System.getenv();
    private RuntimeEnvironment runtimeEnvironment = RuntimeEnvironment.current();
    private IsolationPolicy isolation = IsolationPolicy.OFF;

    private Builder(LoadedManifest manifest, ObjectNode request) {
      this.manifest = Objects.requireNonNull(manifest, "manifest");
      this.request = request.deepCopy();
    }

    /** Sets the action and scope an {@code [[implements]]} provider expects in its envelope. */
    public Builder binding(ActionToken action, ObjectNode scope) {
      this.binding = Optional.of(new ConformancePlan.Binding(action, scope));
      return this;
    }

    /**
     * Sets a path the provider creates when a request has an effect: it must not exist before the
     * check and must still not exist after the requests that must be refused.
     */
    public Builder effectMarker(Path path) {
      this.effectMarker = Optional.of(path.toAbsolutePath());
      return this;
    }

    /** Sets the environment handed to the provider (default: this process's); HOME is replaced. */
    public Builder hostEnvironment(Map<String, String> environment) {
      this.hostEnvironment = Map.copyOf(environment);
      return this;
    }

    /** Sets where {@code java} and the host code path are (default: this JVM's). */
    public Builder runtimeEnvironment(RuntimeEnvironment environment) {
      this.runtimeEnvironment = Objects.requireNonNull(environment, "environment");
      return this;
    }

    /**
     * Sets whether the provider is launched isolated, as a host with this policy launches it
     * (docs/process.md#isolation); the receipt then says which isolation applied. Default {@link
     * IsolationPolicy#OFF}. With {@link IsolationPolicy#REQUIRED} and no usable tool, {@link
     * ProviderConformance#verify} fails with {@code isolation_unavailable} before anything runs.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "1.0")
    public Builder isolation(IsolationPolicy policy) {
      this.isolation = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Builds the check.
     *
     * @throws LoopxException {@code request_invalid} as {@link ProviderConformance#verify}
     */
    public ProviderConformance build() {
      ConformancePlan.Setup setup =
          new ConformancePlan.Setup(
              manifest,
              request,
              binding,
              effectMarker,
              hostEnvironment,
              runtimeEnvironment,
              isolation);
      ConformancePlan.of(setup);
      return new ProviderConformance(setup);
    }
  }
}
