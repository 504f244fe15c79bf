package io.loopx.runtime;

import io.loopx.api.ExtensionId;
import io.loopx.api.Revision;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.identity.RuntimeResolution;
import io.loopx.runtime.process.LaunchRequest;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the fixed launch of a provider (package-private): argv from the resolved runtime and the
 * manifest, and the environment of SPEC §7 (the host's, PATH prefixed by the launcher's directory,
 * {@code LOOPX_EXTENSION_ID} and {@code LOOPX_EXTENSION_REVISION} set).
 */
final class ProviderLaunch {
  static final String ENV_EXTENSION_ID = "LOOPX_EXTENSION_ID";
  static final String ENV_EXTENSION_REVISION = "LOOPX_EXTENSION_REVISION";

  private ProviderLaunch() {}

  static LaunchRequest.Builder request(
      RuntimeResolution.Resolved runtime,
      RuntimeSpec spec,
      List<String> extraArgs,
      Map<String, String> hostEnvironment,
      ExtensionId id,
      Revision revision) {
    List<String> argv = new ArrayList<>(runtime.commandPrefix());
    argv.addAll(spec.args());
    argv.addAll(extraArgs);
    return LaunchRequest.builder(argv)
        .environment(environment(runtime, hostEnvironment, id, revision))
        .timeout(Duration.ofSeconds(spec.timeoutSeconds()));
  }

  static Map<String, String> environment(
      RuntimeResolution.Resolved runtime,
      Map<String, String> hostEnvironment,
      ExtensionId id,
      Revision revision) {
    Map<String, String> env = new LinkedHashMap<>(hostEnvironment);
    Path launcherDirectory = Path.of(runtime.commandPrefix().get(0)).getParent();
    if (launcherDirectory != null) {
      String path = env.get("PATH");
      env.put(
          "PATH",
          path == null || path.isEmpty()
              ? launcherDirectory.toString()
              : launcherDirectory + File.pathSeparator + path);
    }
    env.put(ENV_EXTENSION_ID, id.value());
    env.put(ENV_EXTENSION_REVISION, revision.value());
    return env;
  }
}
