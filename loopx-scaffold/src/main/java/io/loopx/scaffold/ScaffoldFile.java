package io.loopx.scaffold;

import io.loopx.api.InvalidValueException;
import java.util.Locale;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One file of a starter package in a {@link ScaffoldReceipt}: {@code {path, status}}.
 *
 * @param path the path relative to the destination, with {@code /} separators (for example {@code
 *     bin/loopx-example})
 * @param status {@link Status#CREATED} after an execute, {@link Status#WOULD_CREATE} in a preview
 */
@API(status = API.Status.STABLE, since = "1.0")
public record ScaffoldFile(String path, Status status) {

  /**
   * Rejects nulls and a path that is empty, absolute, or has an empty, {@code .} or {@code ..}
   * segment or a backslash.
   */
  public ScaffoldFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(status, "status");
    if (path.isEmpty() || path.startsWith("/") || path.indexOf('\\') >= 0) {
      throw new InvalidValueException("starter file path", path, "must be a relative path");
    }
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new InvalidValueException(
            "starter file path", path, "must not have an empty, `.` or `..` segment");
      }
    }
  }

  /** Whether a starter file was written or would be. */
  public enum Status {
    /** Written by an executed scaffold. */
    CREATED,
    /** Would be written by the execute of a preview. */
    WOULD_CREATE;

    /** Returns the wire word: {@code created} or {@code would_create}. */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
