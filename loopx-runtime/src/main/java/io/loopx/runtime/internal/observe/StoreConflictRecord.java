package io.loopx.runtime.internal.observe;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.events.StoreConflict;
import java.util.List;
import java.util.Objects;

/** The {@link StoreConflict} LoopX delivers. */
public record StoreConflictRecord(String operation, List<ExtensionId> extensionIds)
    implements StoreConflict {

  /** Rejects nulls and copies the list. */
  public StoreConflictRecord {
    Objects.requireNonNull(operation, "operation");
    extensionIds = List.copyOf(extensionIds);
  }
}
