package io.loopx.runtime.internal.observe;

import io.loopx.runtime.events.CallObserver;
import io.loopx.runtime.events.ObservedCall;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The host's {@link CallObserver}s of one {@code Loopx}: begun in the order added, ended in the
 * reverse order, on the calling thread. An observer that throws (in begin or end) never changes the
 * call: its first failure is logged once at {@code WARNING}, like a listener's ({@link
 * EventDelivery}); a scope whose begin threw is not ended.
 */
final class CallObservers {
  private final CallObserver[] observers;
  private final System.Logger log;
  private final Set<CallObserver> reported = ConcurrentHashMap.newKeySet();

  CallObservers(List<CallObserver> observers, System.Logger log) {
    this.observers = observers.toArray(new CallObserver[0]);
    this.log = log;
  }

  /** Whether there is any observer (without, nothing is built or called). */
  boolean any() {
    return observers.length > 0;
  }

  /**
   * Runs {@code body} inside every observer's scope of {@code start}: ends them with {@code ended}
   * of its result, or with {@code failed} of what it threw (then rethrown).
   */
  @SuppressWarnings("IllegalCatch")
  <R> R observe(
      ObservedCall start,
      Supplier<R> body,
      Function<R, ObservedCall> ended,
      Function<Throwable, ObservedCall> failed) {
    @Nullable CallObserver.Scope[] scopes = begin(start);
    R result;
    try {
      result = body.get();
    } catch (RuntimeException | Error e) {
      end(scopes, failed.apply(e));
      throw e;
    }
    end(scopes, ended.apply(result));
    return result;
  }

  /** Begins {@code call} with every observer; returns the scopes, null where begin failed. */
  @SuppressWarnings("IllegalCatch")
  private @Nullable CallObserver.Scope[] begin(ObservedCall call) {
    @Nullable CallObserver.Scope[] scopes = new CallObserver.Scope[observers.length];
    for (int i = 0; i < observers.length; i++) {
      try {
        scopes[i] = observers[i].begin(call);
      } catch (RuntimeException e) {
        failed(observers[i], "begin", call, e);
      }
    }
    return scopes;
  }

  /** Ends the {@code scopes} of {@link #begin} in the reverse order with the ended {@code call}. */
  @SuppressWarnings("IllegalCatch")
  private void end(@Nullable CallObserver.Scope[] scopes, ObservedCall call) {
    for (int i = scopes.length - 1; i >= 0; i--) {
      CallObserver.Scope scope = scopes[i];
      if (scope == null) {
        continue;
      }
      try {
        scope.end(call);
      } catch (RuntimeException e) {
        failed(observers[i], "end", call, e);
      }
    }
  }

  private void failed(CallObserver observer, String phase, ObservedCall call, RuntimeException e) {
    if (reported.add(observer)) {
      log.log(
          Level.WARNING,
          "loopx: call observer "
              + observer.getClass().getName()
              + " threw on "
              + phase
              + " of "
              + call.name()
              + "; its later failures are not logged",
          e);
    }
  }
}
