package io.loopx.runtime.internal.run;

import io.loopx.api.TraceContext;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The host's source of the calling thread's trace context ({@code Loopx.Builder.traceContext},
 * docs/contract/run.md#trace-context), made safe: a source that throws or returns null gives none,
 * and its first such failure is logged at WARNING, the later ones not. Thread-safe.
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public final class TraceSource implements Supplier<Optional<TraceContext>> {
  /** No source: every call has no context. */
  public static final TraceSource NONE =
      new TraceSource(Optional::empty, System.getLogger("io.loopx"));

  private final Supplier<Optional<TraceContext>> source;
  private final System.Logger log;
  private final AtomicBoolean reported = new AtomicBoolean();

  /** Wraps {@code source}; its failures are logged to {@code log}. */
  public TraceSource(Supplier<Optional<TraceContext>> source, System.Logger log) {
    this.source = Objects.requireNonNull(source, "source");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** Returns the calling thread's context, empty when there is none or the source failed. */
  @Override
  @SuppressWarnings("IllegalCatch") // the host's code: any failure counts as no context
  public Optional<TraceContext> get() {
    if (this == NONE) {
      return Optional.empty();
    }
    @Nullable Optional<TraceContext> context;
    try {
      context = source.get();
    } catch (RuntimeException e) {
      report("threw", e);
      return Optional.empty();
    }
    if (context == null) {
      report("returned null", null);
      return Optional.empty();
    }
    return context;
  }

  private void report(String what, @Nullable Throwable e) {
    if (reported.compareAndSet(false, true)) {
      log.log(
          Level.WARNING,
          "loopx: trace context source "
              + source.getClass().getName()
              + " "
              + what
              + "; the call has no trace context, and its later failures are not logged",
          e);
    }
  }
}
