package io.loopx.runtime.events;

import io.loopx.api.ErrorKind;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One call as a {@link CallObserver} sees it: its name and its tags, at its start or at its end.
 * The names, keys and values are listed in docs/observing.md#call-observers. Implemented by LoopX
 * only; hosts do not implement it.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public interface ObservedCall {

  /**
   * Returns {@code loopx.dispatch}, {@code loopx.run}, {@code loopx.doctor} or {@code
   * loopx.lifecycle}.
   */
  String name();

  /**
   * Returns the low-cardinality tags, fit for metric tags: every call of one {@link #name()} has
   * the same keys in the same order, at its start and at its end; a value not known (yet) is {@code
   * none}.
   */
  Map<String, String> lowCardinalityTags();

  /**
   * Returns the high-cardinality values (for example the revision), for spans and logs but never
   * for metric tags; a key is present only once its value is known.
   */
  Map<String, String> highCardinalityTags();

  /** Returns whether the call has ended. */
  boolean ended();

  /**
   * Returns whether the call ended in a failure: it threw, its provider failed or answered what
   * could not be read, or its doctor packet is not ready. False while it runs.
   */
  boolean failed();

  /** Returns the kind of the error the call threw; empty while it runs or when it returned. */
  Optional<ErrorKind> error();
}
