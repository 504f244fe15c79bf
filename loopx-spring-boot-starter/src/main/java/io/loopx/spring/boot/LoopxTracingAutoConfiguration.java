package io.loopx.spring.boot;

import io.loopx.api.TraceContext;
import io.loopx.runtime.Loopx;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * Registers a {@link LoopxBuilderCustomizer} that gives the auto-configured {@link Loopx} the
 * calling thread's trace context from Micrometer Tracing (docs/spring-boot.md#trace-context) when
 * micrometer-tracing is on the class path and the application has a {@link Tracer} and a {@link
 * Propagator} bean: the tracer's current context, injected with the propagator, read as W3C {@code
 * traceparent} and {@code tracestate} (a propagation without {@code traceparent}, such as B3 only,
 * gives none). Backs off when the application defines its own {@code Loopx}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
@AutoConfiguration(
    before = LoopxAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
      "org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration",
      "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration"
    })
@ConditionalOnClass({Tracer.class, Propagator.class})
@ConditionalOnBean({Tracer.class, Propagator.class})
@ConditionalOnMissingBean(Loopx.class)
public class LoopxTracingAutoConfiguration {

  /** Creates the auto-configuration (Spring calls it). */
  public LoopxTracingAutoConfiguration() {}

  /**
   * Sets the builder's trace-context source to {@link #currentContext(Tracer, Propagator)}; ordered
   * {@code 0}, so that the application's customizers of the default order run after it (one that
   * sets its own source wins).
   */
  @Bean
  public LoopxBuilderCustomizer loopxTraceContext(Tracer tracer, Propagator propagator) {
    return new TraceContextCustomizer(tracer, propagator);
  }

  /**
   * Returns the calling thread's trace context: {@code tracer}'s current context injected with
   * {@code propagator}, parsed leniently ({@link TraceContext#parse}); empty without a current
   * context or without a valid {@code traceparent}.
   */
  static Optional<TraceContext> currentContext(Tracer tracer, Propagator propagator) {
    io.micrometer.tracing.TraceContext current = tracer.currentTraceContext().context();
    if (current == null) {
      return Optional.empty();
    }
    Map<String, String> headers = new HashMap<>();
    propagator.inject(current, headers, (carrier, key, value) -> headers.put(key, value));
    return TraceContext.parse(headers.get("traceparent"), headers.get("tracestate"));
  }

  /** The customizer: order {@code 0}. */
  private static final class TraceContextCustomizer implements LoopxBuilderCustomizer, Ordered {
    private final Tracer tracer;
    private final Propagator propagator;

    TraceContextCustomizer(Tracer tracer, Propagator propagator) {
      this.tracer = tracer;
      this.propagator = propagator;
    }

    @Override
    public void customize(Loopx.Builder builder) {
      builder.traceContext(() -> currentContext(tracer, propagator));
    }

    @Override
    public int getOrder() {
      return 0;
    }
  }
}
