package io.loopx.api.manifest;

import io.loopx.api.ApiRange;
import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.internal.ApiCompatibility;
import io.loopx.api.internal.ManifestValues;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A manifest could not be read or broke a rule of {@code loopx_extension_manifest_v0}. Raised by
 * manifest loaders for {@code extension.toml} files and for normalised manifest snapshots.
 *
 * <p>The kind is {@link ErrorKind#MANIFEST_INVALID}, except for a {@code requires_loopx_api} range
 * that does not admit this runtime's API version, which is {@link ErrorKind#API_INCOMPATIBLE}. The
 * message has the form {@code <source>: <key>: <detail>}, so it names both the file and the key.
 *
 * <p>{@link #key()} is the dotted key of the failing rule, with array indices, e.g. {@code
 * runtime.timeout_seconds}, {@code provides[0].id} or {@code presentation_surfaces[1].title}; it is
 * {@value #FILE_KEY} for problems of the file as a whole (missing, unreadable, too large, not
 * UTF-8, not TOML, or declaring nothing at all). Immutable.
 *
 * <p>The message, {@link #key()} and {@link #detail()} write every control, separator and
 * bidirectional control character they quote ({@code U+0000–U+001F}, {@code U+007F–U+009F}, {@code
 * U+2028}, {@code U+2029}, {@code U+202A–U+202E}, {@code U+2066–U+2069}) as <code>&#92;uXXXX</code>
 * (upper-case hex), so they can be shown on a terminal as they are.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class ManifestException extends LoopxException {
  private static final long serialVersionUID = 1L;

  /** The {@link #key()} of problems that concern the file as a whole. */
  public static final String FILE_KEY = "(file)";

  private final String source;
  private final String key;
  private final String detail;

  /**
   * Creates a {@link ErrorKind#MANIFEST_INVALID} exception.
   *
   * @param source the file path as given, or a caller-supplied source name
   * @param key the dotted key of the failing rule, or {@value #FILE_KEY}
   * @param detail what is wrong, naming the offending value
   */
  public ManifestException(String source, String key, String detail) {
    this(ErrorKind.MANIFEST_INVALID, source, key, detail, null);
  }

  /**
   * Creates a {@link ErrorKind#MANIFEST_INVALID} exception with a cause.
   *
   * @param source the file path as given, or a caller-supplied source name
   * @param key the dotted key of the failing rule, or {@value #FILE_KEY}
   * @param detail what is wrong, naming the offending value
   * @param cause the underlying failure (an I/O or parser exception)
   */
  public ManifestException(String source, String key, String detail, @Nullable Throwable cause) {
    this(ErrorKind.MANIFEST_INVALID, source, key, detail, cause);
  }

  private ManifestException(
      ErrorKind kind, String source, String key, String detail, @Nullable Throwable cause) {
    super(kind, message(source, key, detail), cause);
    this.source = source;
    this.key = ManifestValues.escaped(key);
    this.detail = ManifestValues.escaped(detail);
  }

  /**
   * Returns the {@link ErrorKind#API_INCOMPATIBLE} exception for a {@code requires_loopx_api} range
   * that does not admit {@link ApiRange#CURRENT_API_VERSION}; its detail is {@code requires LoopX
   * extension API <range>, but this runtime provides 1}.
   */
  public static ManifestException apiIncompatible(String source, ApiRange range) {
    return new ManifestException(
        ErrorKind.API_INCOMPATIBLE,
        source,
        "requires_loopx_api",
        ApiCompatibility.detail(range),
        null);
  }

  /** Returns the file path as given, or the caller-supplied source name. */
  public String source() {
    return source;
  }

  /** Returns the dotted key of the failing rule, or {@value #FILE_KEY}. */
  public String key() {
    return key;
  }

  /** Returns what is wrong, without the source and key prefix. */
  public String detail() {
    return detail;
  }

  private static String message(String source, String key, String detail) {
    return ManifestValues.escaped(Objects.requireNonNull(source, "source"))
        + ": "
        + ManifestValues.escaped(Objects.requireNonNull(key, "key"))
        + ": "
        + ManifestValues.escaped(Objects.requireNonNull(detail, "detail"));
  }
}
