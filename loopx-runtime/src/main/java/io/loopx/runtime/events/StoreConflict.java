package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A compare-and-set write of this {@code Loopx} was refused because an entry changed since it was
 * read ({@code state_conflict}); nothing was written and the operation fails.
 *
 * @param operation the operation whose write was refused
 * @param extensionIds the entries the write would have changed
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public record StoreConflict(String operation, List<ExtensionId> extensionIds)
    implements LoopxEvent {

  /** Rejects nulls and copies the list. */
  public StoreConflict {
    Objects.requireNonNull(operation, "operation");
    extensionIds = List.copyOf(extensionIds);
  }
}
