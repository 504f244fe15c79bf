package io.loopx.runtime.events;

import io.loopx.api.ExtensionId;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A compare-and-set write of this {@code Loopx} was refused because an entry changed since it was
 * read ({@code state_conflict}); nothing was written and the operation fails. Implemented by LoopX
 * only; hosts do not implement it.
 */
@API(status = API.Status.STABLE, since = "1.0")
public non-sealed interface StoreConflict extends LoopxEvent {

  /** Returns the operation whose write was refused. */
  String operation();

  /** Returns the entries the write would have changed. */
  List<ExtensionId> extensionIds();
}
