package io.loopx.api.manifest;

import io.loopx.api.internal.ManifestValues;
import java.util.Objects;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * One problem of a manifest, as reported by {@link ManifestException#problems()}: the dotted key of
 * the failing rule (as {@link ManifestException#key()}), where the problem is in the file when
 * known (1-based line and column, counted in code points), and the message {@code <source>: <key>:
 * <detail>} (as {@link Throwable#getMessage()} of a {@link ManifestException} for that problem
 * alone). Control, separator and bidirectional control characters in the key and message are
 * written as <code>&#92;uXXXX</code>, as in {@link ManifestException}. Immutable.
 *
 * @param key the dotted key of the failing rule, or {@value ManifestException#FILE_KEY}
 * @param line the 1-based line of the problem, when known
 * @param column the 1-based column of the problem, when known (only with a line)
 * @param message {@code <source>: <key>: <detail>}
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ManifestProblem(String key, OptionalInt line, OptionalInt column, String message) {
  /**
   * Checks and escapes the components.
   *
   * @throws IllegalArgumentException if a line or column is below 1, or a column comes without a
   *     line
   */
  public ManifestProblem {
    key = ManifestValues.escaped(Objects.requireNonNull(key, "key"));
    message = ManifestValues.escaped(Objects.requireNonNull(message, "message"));
    Objects.requireNonNull(line, "line");
    Objects.requireNonNull(column, "column");
    if ((line.isPresent() && line.getAsInt() < 1)
        || (column.isPresent() && (column.getAsInt() < 1 || line.isEmpty()))) {
      throw new IllegalArgumentException(
          "a problem's line and column must be at least 1, and a column needs a line");
    }
  }
}
