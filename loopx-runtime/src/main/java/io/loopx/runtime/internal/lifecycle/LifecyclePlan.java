package io.loopx.runtime.internal.lifecycle;

import io.loopx.api.LoopxException;
import io.loopx.runtime.Receipt;
import io.loopx.runtime.state.EntryChange;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a command decides: the state changes to apply (compare-and-set, only when executing) and
 * then either the receipt or a failure to raise after the changes were applied (a failed enable
 * revokes the probed identity, then fails).
 *
 * @param <R> the receipt type of the command
 * @param receipt the receipt, when the command succeeds
 * @param changes the state changes to apply when executing (none in a preview)
 * @param failure the error to raise after applying {@code changes}
 */
public record LifecyclePlan<R extends Receipt>(
    Optional<R> receipt, List<EntryChange> changes, Optional<LoopxException> failure) {

  /** Checks that exactly one of receipt and failure is present. */
  public LifecyclePlan {
    Objects.requireNonNull(receipt, "receipt");
    changes = List.copyOf(changes);
    Objects.requireNonNull(failure, "failure");
    if (receipt.isPresent() == failure.isPresent()) {
      throw new IllegalArgumentException("a plan has either a receipt or a failure");
    }
  }

  static <R extends Receipt> LifecyclePlan<R> succeed(R receipt, List<EntryChange> changes) {
    return new LifecyclePlan<>(Optional.of(receipt), changes, Optional.empty());
  }

  static <R extends Receipt> LifecyclePlan<R> fail(
      LoopxException failure, List<EntryChange> changes) {
    return new LifecyclePlan<>(Optional.empty(), changes, Optional.of(failure));
  }
}
