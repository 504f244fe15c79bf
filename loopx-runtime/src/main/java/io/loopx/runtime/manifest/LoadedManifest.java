package io.loopx.runtime.manifest;

import io.loopx.api.Revision;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.ManifestException;
import io.loopx.runtime.internal.manifest.ManifestLoader;
import java.nio.file.Path;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A manifest that LoopX read and validated under every manifest rule (docs/contract/manifest.md),
 * with where it came from. Only {@link #load} and {@link #parse} make one, so every instance passed
 * the loader's rules. Immutable and thread-safe.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class LoadedManifest {
  /** The largest manifest accepted, in bytes (256 KiB). */
  public static final int MAX_BYTES = ManifestLoader.MAX_MANIFEST_BYTES;

  private final ExtensionManifest manifest;
  private final String source;
  private final Path directory;

  private LoadedManifest(ExtensionManifest manifest, String source, Path directory) {
    this.manifest = manifest;
    this.source = source;
    this.directory = directory;
  }

  /**
   * Reads, parses and validates the manifest file {@code file}. At most {@link #MAX_BYTES}{@code +
   * 1} bytes are read; the content must be UTF-8 TOML.
   *
   * @throws ManifestException if the file is missing, not a regular file, unreadable, too large, or
   *     breaks a manifest rule ({@code api_incompatible} for an unsatisfied {@code
   *     requires_loopx_api}); its {@link ManifestException#problems()} lists every problem
   */
  public static LoadedManifest load(Path file) {
    ManifestLoader.Content content = ManifestLoader.read(file);
    return parse(content.bytes(), content.source(), content.directory());
  }

  /**
   * Parses and validates in-memory manifest content under the same rules as {@link #load(Path)}.
   *
   * @param content the manifest bytes (UTF-8 TOML, at most {@link #MAX_BYTES})
   * @param sourceName the name used in messages and {@link #source()}
   * @param directory the directory against which a relative {@code entrypoint} path is resolved
   * @throws ManifestException if the content breaks a rule; its {@link
   *     ManifestException#problems()} lists every problem
   */
  public static LoadedManifest parse(byte[] content, String sourceName, Path directory) {
    Objects.requireNonNull(directory, "directory");
    return new LoadedManifest(ManifestLoader.validate(content, sourceName), sourceName, directory);
  }

  /** Returns the validated, normalised manifest. */
  public ExtensionManifest manifest() {
    return manifest;
  }

  /** Returns the file path as given, or the caller-supplied source name. */
  public String source() {
    return source;
  }

  /** Returns the directory against which a relative {@code entrypoint} path is resolved. */
  public Path directory() {
    return directory;
  }

  /** Returns the manifest's revision id. */
  public Revision revision() {
    return manifest.revision();
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof LoadedManifest o
        && manifest.equals(o.manifest)
        && source.equals(o.source)
        && directory.equals(o.directory);
  }

  @Override
  public int hashCode() {
    return Objects.hash(manifest, source, directory);
  }

  @Override
  public String toString() {
    return "LoadedManifest[" + manifest.id() + " " + manifest.revision() + " from " + source + "]";
  }
}
