package io.loopx.micrometer;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.runtime.WorkerPoolSnapshot;
import io.loopx.runtime.events.CallObserver;
import io.loopx.runtime.events.ObservedCall;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * LoopX in Micrometer (docs/observing.md#micrometer): a {@link CallObserver} that makes an {@link
 * Observation} of every dispatch, run, doctor probe and lifecycle command, counts the dispatches
 * and runs that threw ({@value #REFUSALS}), and binds the worker-pool gauges of a {@code Loopx}.
 *
 * <pre>{@code
 * LoopxMicrometer micrometer = LoopxMicrometer.of(observationRegistry, meterRegistry);
 * Loopx loopx = Loopx.builder().observer(micrometer) ... .build();
 * micrometer.bindTo(loopx); // the worker-pool gauges
 * }</pre>
 *
 * <p>Each observation is named after its call ({@code loopx.dispatch}, {@code loopx.run}, {@code
 * loopx.doctor}, {@code loopx.lifecycle}), has a {@link LoopxObservationContext} and takes its key
 * values from a {@link LoopxObservationConvention} ({@link DefaultLoopxObservationConvention}
 * unless replaced). It is started and its scope opened on the calling thread when the call begins
 * (so Micrometer Tracing, where the host has it, makes its span current while the provider runs),
 * and it is stopped when the call ends: a call that threw gets {@link Observation#error} with a
 * {@link LoopxException} of the thrown kind. Thread-safe; one instance serves one {@code Loopx}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public final class LoopxMicrometer implements CallObserver {

  /**
   * The refusal counter: dispatches and runs that ended in an exception, tags {@code call} ({@code
   * loopx.dispatch} or {@code loopx.run}), {@code kind} (the error kind's wire word), {@code
   * extension} and {@code capability} ({@code none} when not known, and for a run).
   */
  public static final String REFUSALS = "loopx.refusals";

  /** The gauge of the worker processes alive or starting, per extension (tag {@code extension}). */
  public static final String WORKERS_PROCESSES = "loopx.workers.processes";

  /** The gauge of the requests a worker is serving, per extension (tag {@code extension}). */
  public static final String WORKERS_IN_FLIGHT = "loopx.workers.requests.in.flight";

  /** The gauge of the requests waiting for a worker, per extension (tag {@code extension}). */
  public static final String WORKERS_QUEUED = "loopx.workers.requests.queued";

  private static final String NONE = "none";
  private static final Map<String, DefaultLoopxObservationConvention> DEFAULTS =
      Map.of(
          "loopx.dispatch", new DefaultLoopxObservationConvention("loopx.dispatch"),
          "loopx.run", new DefaultLoopxObservationConvention("loopx.run"),
          "loopx.doctor", new DefaultLoopxObservationConvention("loopx.doctor"),
          "loopx.lifecycle", new DefaultLoopxObservationConvention("loopx.lifecycle"));

  private final ObservationRegistry observations;
  private final MeterRegistry meters;
  private final @Nullable LoopxObservationConvention convention;
  private final AtomicReference<@Nullable WorkerPoolGauges> gauges = new AtomicReference<>();

  private LoopxMicrometer(
      ObservationRegistry observations,
      MeterRegistry meters,
      @Nullable LoopxObservationConvention convention) {
    this.observations = Objects.requireNonNull(observations, "observation registry");
    this.meters = Objects.requireNonNull(meters, "meter registry");
    this.convention = convention;
  }

  /**
   * Observes calls in {@code observations} (its handlers make the timers and spans: in Spring Boot
   * the application's {@code ObservationRegistry}) and counts refusals and worker pools in {@code
   * meters}.
   */
  public static LoopxMicrometer of(ObservationRegistry observations, MeterRegistry meters) {
    return new LoopxMicrometer(observations, meters, null);
  }

  /**
   * Observes calls in a new {@code ObservationRegistry} whose one handler is a {@link
   * DefaultMeterObservationHandler} on {@code meters} (a timer per call name, and a long task timer
   * {@code <name>.active}), for a host that has a {@code MeterRegistry} and no observation setup.
   */
  public static LoopxMicrometer of(MeterRegistry meters) {
    ObservationRegistry observations = ObservationRegistry.create();
    observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
    return of(observations, meters);
  }

  /**
   * Returns an observer like this one whose observations take their name and key values from {@code
   * convention} instead of the default (or a global convention of the registry).
   */
  public LoopxMicrometer withConvention(LoopxObservationConvention convention) {
    return new LoopxMicrometer(
        observations, meters, Objects.requireNonNull(convention, "observation convention"));
  }

  /**
   * Binds the worker-pool gauges of {@code loopx} ({@value #WORKERS_PROCESSES}, {@value
   * #WORKERS_IN_FLIGHT}, {@value #WORKERS_QUEUED}, per extension) to the meter registry, through a
   * {@code MeterBinder}. An extension's gauges are registered when its pool is first seen: pools
   * alive now, then at the end of the first dispatch or run of this observer that a worker of that
   * extension served; they read 0 once the extension has no pool (or {@code loopx} closed).
   *
   * @return this observer
   * @throws IllegalStateException if this observer is bound already
   */
  public LoopxMicrometer bindTo(io.loopx.runtime.Loopx loopx) {
    Objects.requireNonNull(loopx, "loopx");
    return bindPools(loopx::workerPools);
  }

  /** Binds the gauges to a source of pool snapshots (the tests' and {@link #bindTo}'s). */
  LoopxMicrometer bindPools(Supplier<? extends Collection<? extends WorkerPoolSnapshot>> pools) {
    WorkerPoolGauges bound = new WorkerPoolGauges(pools);
    if (!gauges.compareAndSet(null, bound)) {
      throw new IllegalStateException("this LoopxMicrometer is bound to a Loopx already");
    }
    bound.bindTo(meters);
    return this;
  }

  /** Starts the call's observation and opens its scope on the calling thread. */
  @Override
  public Scope begin(ObservedCall call) {
    if (observations.isNoop()) {
      return this::counted;
    }
    LoopxObservationContext context = new LoopxObservationContext(call);
    DefaultLoopxObservationConvention fallback = DEFAULTS.get(call.name());
    Observation observation =
        Observation.createNotStarted(
            convention,
            fallback != null ? fallback : new DefaultLoopxObservationConvention(call.name()),
            () -> context,
            observations);
    observation.start();
    return new CallScope(context, observation, observation.openScope());
  }

  /** One call's observation, ended once on the thread that began it. */
  private final class CallScope implements Scope {
    private final LoopxObservationContext context;
    private final Observation observation;
    private final Observation.Scope scope;

    CallScope(LoopxObservationContext context, Observation observation, Observation.Scope scope) {
      this.context = context;
      this.observation = observation;
      this.scope = scope;
    }

    @Override
    public void end(ObservedCall call) {
      try {
        context.ended(call);
        Optional<ErrorKind> error = call.error();
        if (error.isPresent()) {
          LoopxException thrown =
              new LoopxException(error.get(), call.name() + " threw " + error.get().wireName());
          thrown.setStackTrace(new StackTraceElement[0]);
          observation.error(thrown);
        }
      } finally {
        try {
          scope.close();
        } finally {
          try {
            observation.stop();
          } finally {
            counted(call);
          }
        }
      }
    }
  }

  /** Counts a refusal, and registers the pool gauges of an extension a worker served. */
  private void counted(ObservedCall call) {
    String name = call.name();
    boolean dispatch = name.equals("loopx.dispatch");
    if (!dispatch && !name.equals("loopx.run")) {
      return;
    }
    Map<String, String> tags = call.lowCardinalityTags();
    String extension = tags.getOrDefault("extension", NONE);
    Optional<ErrorKind> error = call.error();
    if (error.isPresent()) {
      Counter.builder(REFUSALS)
          .description("LoopX dispatches and runs that ended in an exception")
          .tag("call", name)
          .tag("kind", error.get().wireName())
          .tag("extension", extension)
          .tag("capability", dispatch ? tags.getOrDefault("capability", NONE) : NONE)
          .register(meters)
          .increment();
    }
    WorkerPoolGauges bound = gauges.get();
    if (bound != null && "worker".equals(tags.get("path"))) {
      bound.served(extension);
    }
  }
}
