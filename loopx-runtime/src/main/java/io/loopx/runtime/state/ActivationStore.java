package io.loopx.runtime.state;

import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Durable activation state: consistent reads and locked compare-and-set writes.
 *
 * <p>Implemented by LoopX ({@code FileActivationStore}); a host may implement it for another
 * backend (for example a database shared by a fleet of hosts). Implementations are thread-safe.
 */
@API(status = API.Status.STABLE, since = "1.0")
public interface ActivationStore {

  /**
   * Reads a consistent snapshot. A missing state reads as {@link ActivationState#EMPTY}; an
   * unreadable or invalid one fails closed with {@code STATE_UNREADABLE} and is left untouched.
   *
   * @throws LoopxException {@code STATE_UNREADABLE} or {@code IO_FAILED}
   */
  ActivationState read();

  /**
   * Reads the entry of {@code id} alone, as committed now: what the execute-time check of dispatch
   * and run reads right before a launch. The default reads the whole state; a store that keeps
   * entries apart (a database) may read just this one.
   *
   * @throws LoopxException {@code STATE_UNREADABLE} or {@code IO_FAILED}
   */
  default Optional<ExtensionRecord> entry(ExtensionId id) {
    return read().get(id);
  }

  /**
   * Applies {@code changes} atomically under the exclusive lock: re-reads the state, checks that
   * every changed entry still equals its {@link EntryChange#expected()} value, and writes the new
   * state durably. Changes that alter nothing are not written. Returns the state after the write.
   *
   * @param operation the operation name used in a conflict message (e.g. {@code install})
   * @throws LoopxException {@code STATE_CONFLICT} when an entry changed since it was read, {@code
   *     STATE_LOCKED} when the lock is not acquired within the bounded wait, {@code
   *     STATE_UNREADABLE} when the current state cannot be read, {@code IO_FAILED} on write errors
   */
  ActivationState update(String operation, List<EntryChange> changes);
}
