package io.loopx.runtime.internal.manifest;

import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.ManifestException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Reads and validates extension manifests: {@code extension.toml} files (schema {@code
 * loopx_extension_manifest_v0}) and normalised manifest snapshots.
 *
 * <p>Every rule of the manifest contract is applied in the documented order (schema_version, id,
 * version, requires_loopx_api, permissions, runtime, presentation_surfaces, provides, implements,
 * "declares something"). Every problem of a document that parsed is collected; the first is thrown
 * as a {@link ManifestException} naming the source and the dotted key, whose {@link
 * ManifestException#problems()} lists them all, each with its line and column where known. A TOML
 * syntax error stops the reading: it is the one problem. Reading a manifest never loads or runs
 * extension code: a {@code java_main} class name is checked for its grammar only.
 *
 * <p>TOML is exactly TOML 1.0.0 (a leading byte-order mark allowed): a strict check of the grammar
 * and the table rules runs before night-config parses the document, and refuses the first problem
 * naming its line and column. It also refuses integer literals outside the signed 64-bit range,
 * arrays or inline tables nested deeper than 32 levels, keys with more than 32 dotted parts and
 * leap seconds (see docs/contract/manifest.md).
 *
 * <p>Files are read through {@link Files}, so any {@link java.nio.file.FileSystem} works.
 * Stateless: immutable and safe to share between threads.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ManifestLoader {
  /** The largest manifest accepted, in bytes (256 KiB). */
  public static final int MAX_MANIFEST_BYTES = 256 * 1024;

  /** Creates a loader. */
  public ManifestLoader() {}

  /** The bytes of a manifest file, its source name and its directory. */
  public record Content(byte[] bytes, String source, Path directory) {}

  /**
   * Reads the manifest file {@code file}: at most {@link #MAX_MANIFEST_BYTES}{@code + 1} bytes.
   *
   * @throws ManifestException if the file is missing, not a regular file, unreadable or too large
   */
  public static Content read(Path file) {
    Objects.requireNonNull(file, "file");
    String source = file.toString();
    byte[] content;
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      if (!attributes.isRegularFile()) {
        throw fileProblem(source, "is not a regular file", null);
      }
      try (InputStream in = Files.newInputStream(file)) {
        content = readAtMost(in, MAX_MANIFEST_BYTES + 1, attributes.size());
      }
    } catch (NoSuchFileException e) {
      throw fileProblem(source, "does not exist", e);
    } catch (AccessDeniedException e) {
      throw fileProblem(source, "is not readable (access denied)", e);
    } catch (IOException | SecurityException e) {
      throw fileProblem(source, "cannot be read: " + e, e);
    }
    if (content.length > MAX_MANIFEST_BYTES) {
      throw fileProblem(source, "is larger than the " + MAX_MANIFEST_BYTES + "-byte limit", null);
    }
    Path directory = file.toAbsolutePath().getParent();
    if (directory == null) {
      throw fileProblem(source, "has no parent directory", null);
    }
    return new Content(content, source, directory);
  }

  /**
   * Reads at most {@code limit} bytes, like {@link InputStream#readNBytes(int)}, into a buffer
   * sized for the {@code expected} length (the file's size when it was checked; the file may have
   * changed since, so the buffer grows up to the limit).
   */
  static byte[] readAtMost(InputStream in, int limit, long expected) throws IOException {
    byte[] buffer = new byte[(int) Math.min(Math.max(expected, 0) + 1, limit)];
    int length = 0;
    while (true) {
      if (length == buffer.length) {
        if (length == limit) {
          return buffer;
        }
        buffer = Arrays.copyOf(buffer, (int) Math.min(2L * length, limit));
      }
      int read = in.read(buffer, length, buffer.length - length);
      if (read < 0) {
        return length == buffer.length ? buffer : Arrays.copyOf(buffer, length);
      }
      length += read;
    }
  }

  /**
   * Parses and validates manifest content (UTF-8 TOML, at most {@link #MAX_MANIFEST_BYTES}).
   *
   * @param content the manifest bytes
   * @param sourceName the name used in messages
   * @throws ManifestException if the content breaks a rule ({@code api_incompatible} for an
   *     unsatisfied {@code requires_loopx_api})
   */
  public static ExtensionManifest validate(byte[] content, String sourceName) {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(sourceName, "sourceName");
    if (content.length > MAX_MANIFEST_BYTES) {
      throw fileProblem(
          sourceName,
          "is " + content.length + " bytes, over the " + MAX_MANIFEST_BYTES + "-byte limit",
          null);
    }
    return ManifestRules.fromToml(
        TomlDocument.parse(content, sourceName), sourceName, () -> TomlDocument.positions(content));
  }

  /**
   * Reads back a normalised manifest snapshot, as produced by {@link
   * ExtensionManifest#toNormalizedJson()}, strictly: the exact key sets of the normalised form
   * ({@code runtime} is {@code null} when absent), the same value rules as a TOML file, and the
   * result must normalise to exactly the input. The {@code requires_loopx_api} range is checked for
   * its grammar only; whether it admits this runtime is for the caller to report (a snapshot in
   * durable state stays readable after an API change).
   *
   * @param snapshot the normalised manifest JSON
   * @param sourceName the name used in messages, e.g. the state file and the entry
   * @throws ManifestException if the snapshot breaks a rule or is not in normalised form
   */
  public ExtensionManifest fromNormalizedJson(JsonNode snapshot, String sourceName) {
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(sourceName, "sourceName");
    return ManifestRules.fromSnapshot(snapshot, sourceName);
  }

  private static ManifestException fileProblem(
      String source, String detail, @Nullable Throwable cause) {
    return new ManifestException(source, ManifestException.FILE_KEY, detail, cause);
  }
}
