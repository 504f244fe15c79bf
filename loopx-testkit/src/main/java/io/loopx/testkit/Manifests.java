package io.loopx.testkit;

import io.loopx.api.provider.ProviderMain;
import io.loopx.runtime.manifest.LoadedManifest;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Starting points for {@link ManifestBuilder}s: a bare header, a standalone extension, a capability
 * provider and an implementation of a capability. Every builder starts valid; change what the test
 * is about.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class Manifests {
  /** The manifest file name in an extension package. */
  static final String FILE_NAME = "extension.toml";

  /** The default {@code version}. */
  public static final String DEFAULT_VERSION = "1.0.0";

  /** The default {@code requires_loopx_api}: this API version, 1. */
  public static final String DEFAULT_API_RANGE = ">=1,<2";

  /**
   * The default {@code entrypoint} of {@link #standalone}: a path relative to the package directory
   * (written there by {@link JimfsRuntimeRoot#writePackage}).
   */
  public static final String DEFAULT_ENTRYPOINT = "bin/provider";

  private Manifests() {}

  /**
   * Returns a builder with only the header ({@code schema_version}, {@code id}, {@code version},
   * {@code requires_loopx_api}, no permissions) and no runtime: valid only once something is added.
   */
  public static ManifestBuilder builder(String id) {
    return new ManifestBuilder(id);
  }

  /**
   * Returns a standalone extension: a runtime with {@code entrypoint = "bin/provider"}, {@code
   * doctor_args = ["--doctor"]} and the protocol {@code <id with _>_v0}.
   */
  public static ManifestBuilder standalone(String id) {
    return builder(id).entrypoint(DEFAULT_ENTRYPOINT).doctorArgs(ProviderMain.DOCTOR_FLAG);
  }

  /**
   * Returns a declaration-only extension that provides the public capability {@code capabilityId}.
   */
  public static ManifestBuilder provider(String id, String capabilityId) {
    return builder(id).provides(capabilityId);
  }

  /**
   * Returns an extension with a runtime (as {@link #standalone}) that implements {@code
   * capabilityId}, for example the built-in {@code semantic-preference} or a capability it also
   * {@linkplain ManifestBuilder#provides(String) provides}.
   */
  public static ManifestBuilder implementer(String id, String capabilityId) {
    return standalone(id).implementsCapability(capabilityId);
  }

  /**
   * Loads {@code file} with the real {@link LoadedManifest#load}.
   *
   * @throws io.loopx.api.manifest.ManifestException when it breaks a rule
   */
  public static LoadedManifest load(Path file) {
    return LoadedManifest.load(file);
  }
}
