package io.loopx.runtime.state;

import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.Arguments;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A compare-and-set change of one state entry: the entry must still equal {@code expected} under
 * the lock, then it becomes {@code replacement} (empty = absent).
 *
 * @param id the extension id
 * @param expected the entry as read before planning (empty = not installed)
 * @param replacement the entry to write (empty = remove)
 */
@API(status = API.Status.STABLE, since = "1.0")
public record EntryChange(
    ExtensionId id, Optional<ExtensionRecord> expected, Optional<ExtensionRecord> replacement) {
  /** Rejects nulls and records of another id. */
  public EntryChange {
    Arguments.required("entry change id", id);
    Arguments.required("entry change expected", expected);
    Arguments.required("entry change replacement", replacement);
    replacement.ifPresent(
        r -> {
          if (!r.id().equals(id)) {
            throw new InvalidValueException(
                "entry change replacement", r.id().value(), "must be the record of `" + id + "`");
          }
        });
  }

  /** Returns whether applying the change would alter the entry. */
  public boolean changes() {
    return !expected.equals(replacement);
  }
}
