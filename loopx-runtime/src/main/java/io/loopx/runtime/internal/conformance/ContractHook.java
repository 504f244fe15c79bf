package io.loopx.runtime.internal.conformance;

import io.loopx.api.ActionToken;
import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.RuntimeEnvironment;
import io.loopx.runtime.internal.envelope.EnvelopeBinder;
import io.loopx.runtime.internal.identity.RuntimeResolution;
import io.loopx.runtime.internal.identity.RuntimeResolver;
import io.loopx.runtime.internal.identity.SearchPath;
import io.loopx.runtime.internal.process.LaunchRequestBuilder;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.internal.run.ProviderLaunch;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.ProcessLauncher;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one door of the testkit's provider contract kit into the runtime (this package is exported to
 * {@code io.loopx.testkit} alone, docs/ARCHITECTURE.md#qualified-exports): what the kit must do
 * exactly as LoopX does it and no public API offers, because no host needs it. It binds a request
 * as a dispatch binds it, and launches a provider directly with the argv and environment LoopX
 * starts it with. Everything else the kit does goes through the public {@code Loopx}, {@code
 * LoadedManifest} and {@link EnvelopeMutations}.
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public final class ContractHook {
  private ContractHook() {}

  /**
   * An argv and the environment LoopX starts it with.
   *
   * @param argv the command line
   * @param environment the whole environment of the process
   */
  public record Command(List<String> argv, Map<String, String> environment) {
    /** Copies both. */
    public Command {
      argv = List.copyOf(argv);
      environment = Map.copyOf(environment);
    }
  }

  /**
   * Returns {@code request} bound as a dispatch binds it (the envelope binding {@code action},
   * {@code scope}, {@code id}, {@code revision} and the request's digest, under {@code
   * execution_envelope}).
   *
   * @throws io.loopx.api.LoopxException {@code request_invalid} as a dispatch refuses the request
   * @throws io.loopx.api.InvalidValueException for a scope a dispatch could not bind
   */
  public static ObjectNode bind(
      ActionToken action, ObjectNode scope, ExtensionId id, Revision revision, ObjectNode request) {
    return EnvelopeBinder.bind(action, scope, id, revision, request);
  }

  /** Returns LoopX's own process launcher, the one {@code Loopx.builder()} uses by default. */
  public static ProcessLauncher processLauncher() {
    return OsProcessLauncher.create();
  }

  /**
   * Returns the command LoopX starts the installed revision {@code revision} of {@code id} with:
   * the runtime resolved as a run resolves it (from the saved entrypoint path, with the one {@code
   * PATH} composed from {@code hostEnvironment} as {@code Loopx.Builder} composes it), argv = its
   * command prefix + the manifest's {@code args} + {@code extraArgs}, the provider environment of
   * docs/contract/run.md.
   *
   * @throws IllegalStateException naming the resolution when the runtime does not resolve
   */
  public static Command command(
      RuntimeSpec spec,
      Optional<Path> savedEntrypoint,
      Map<String, String> hostEnvironment,
      ExtensionId id,
      Revision revision,
      List<String> extraArgs) {
    RuntimeEnvironment current = RuntimeEnvironment.current();
    String searchPath =
        SearchPath.compose(
            hostEnvironment.getOrDefault("PATH", current.searchPath()), FileSystems.getDefault());
    RuntimeResolution resolution =
        RuntimeResolver.of(
                new RuntimeEnvironment(searchPath, current.javaExecutable(), current.codePath()))
            .resolveSaved(spec.launchTarget(), savedEntrypoint);
    if (!(resolution instanceof RuntimeResolution.Resolved resolved)) {
      throw new IllegalStateException(
          "the runtime of `" + id + "` does not resolve: " + resolution);
    }
    List<String> argv = new ArrayList<>(resolved.commandPrefix());
    argv.addAll(spec.args());
    argv.addAll(extraArgs);
    return new Command(
        argv, ProviderLaunch.environment(resolved, hostEnvironment, searchPath, id, revision));
  }

  /**
   * Returns a launch of {@code command} in {@code workingDirectory} with {@code stdin} and {@code
   * timeout}, and the default output limits.
   */
  public static LaunchRequest request(
      Command command, Path workingDirectory, byte[] stdin, Duration timeout) {
    return LaunchRequestBuilder.of(command.argv())
        .environment(command.environment())
        .workingDirectory(workingDirectory)
        .stdin(stdin)
        .timeout(timeout)
        .build();
  }
}
