package io.loopx.api.manifest;

import io.loopx.api.ApiRange;
import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.internal.ApiCompatibility;
import io.loopx.api.internal.ManifestValues;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A manifest could not be read or broke a rule of {@code loopx_extension_manifest_v0}. Raised by
 * manifest loaders for {@code extension.toml} files and for normalised manifest snapshots.
 *
 * <p>The kind is {@link ErrorKind#MANIFEST_INVALID}, except for a {@code requires_loopx_api} range
 * that does not admit this runtime's API version ({@link ErrorKind#API_INCOMPATIBLE}). The message
 * is {@code <source>: <key>: <detail>}; {@link #key()} is the dotted key with array indices (e.g.
 * {@code provides[0].id}), or {@value #FILE_KEY} for the file as a whole. Quoted control, separator
 * and bidirectional characters are written as <code>&#92;uXXXX</code> (docs/contract/errors.md).
 *
 * <p>A loader reports every problem it finds at once: {@link #problems()} lists them in the
 * documented rule order, and this exception is the first of them. Immutable.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class ManifestException extends LoopxException {
  private static final long serialVersionUID = 1L;

  /** The {@link #key()} of problems that concern the file as a whole. */
  public static final String FILE_KEY = "(file)";

  private final String source;
  private final String key;
  private final String detail;
  // Not serialised: a deserialised exception reports its own problem only.
  private final transient @Nullable List<ManifestProblem> problems;

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

  /**
   * Creates the exception that reports several problems of one manifest: {@code first}'s kind,
   * source, key, detail, message and cause, with {@code problems} as {@link #problems()}.
   *
   * @param first the exception of the first problem
   * @param problems every problem in order; the first must have {@code first}'s key and message
   * @throws IllegalArgumentException if {@code problems} is empty or does not start with {@code
   *     first}'s problem
   */
  public ManifestException(ManifestException first, List<ManifestProblem> problems) {
    super(first.kind(), Objects.requireNonNull(first.getMessage()), first.getCause());
    List<ManifestProblem> copy = List.copyOf(problems);
    if (copy.isEmpty()
        || !copy.get(0).key().equals(first.key)
        || !copy.get(0).message().equals(first.getMessage())) {
      throw new IllegalArgumentException(
          "the first problem must be the problem of the exception it extends");
    }
    this.source = first.source;
    this.key = first.key;
    this.detail = first.detail;
    this.problems = copy;
  }

  private ManifestException(
      ErrorKind kind, String source, String key, String detail, @Nullable Throwable cause) {
    super(kind, message(source, key, detail), cause);
    this.source = source;
    this.key = ManifestValues.escaped(key);
    this.detail = ManifestValues.escaped(detail);
    this.problems = null;
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

  /**
   * Returns every problem found, in the documented order of the rules; the first is this
   * exception's own ({@link #key()}, message). An exception created for a single problem returns
   * that problem alone, without a position.
   */
  public List<ManifestProblem> problems() {
    List<ManifestProblem> all = problems;
    return all != null
        ? all
        : List.of(
            new ManifestProblem(
                key, OptionalInt.empty(), OptionalInt.empty(), String.valueOf(getMessage())));
  }

  private static String message(String source, String key, String detail) {
    return ManifestValues.escaped(Objects.requireNonNull(source, "source"))
        + ": "
        + ManifestValues.escaped(Objects.requireNonNull(key, "key"))
        + ": "
        + ManifestValues.escaped(Objects.requireNonNull(detail, "detail"));
  }
}
