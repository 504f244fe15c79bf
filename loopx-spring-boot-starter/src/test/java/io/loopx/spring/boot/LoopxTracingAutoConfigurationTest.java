package io.loopx.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.Loopx;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@link LoopxTracingAutoConfiguration}: with Micrometer Tracing's {@link Tracer} and {@link
 * Propagator} beans a real shell-script provider (its doctor probe, started by the install) gets
 * {@code TRACEPARENT} of the current span; without the classes, without the beans, with a
 * propagation that writes no {@code traceparent}, or when the application defines its own {@code
 * Loopx}, it gets none.
 */
class LoopxTracingAutoConfigurationTest {
  @TempDir Path tmp;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                LoopxTracingAutoConfiguration.class, LoopxAutoConfiguration.class))
        .withPropertyValues("loopx.runtime-root=" + tmp.resolve("root"));
  }

  private static ApplicationContextRunner withTracing(
      ApplicationContextRunner runner, Propagator propagator) {
    return runner
        .withBean(Tracer.class, SimpleTracer::new)
        .withBean(Propagator.class, () -> propagator);
  }

  /**
   * Installs {@code demo-sh} inside a new span; returns the span's trace id and the probe's env.
   */
  private static Map.Entry<String, Map<String, String>> installInSpan(
      Tracer tracer, Loopx loopx, Path tmp) throws IOException {
    Span span = tracer.nextSpan().name("install").start();
    Path dir;
    try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
      dir = Fixtures.installSh(loopx, tmp);
    } finally {
      span.end();
    }
    return Map.entry(span.context().traceId(), probeEnvironment(dir));
  }

  private static Map<String, String> probeEnvironment(Path dir) throws IOException {
    return Files.readAllLines(dir.resolve("env.txt")).stream()
        .filter(l -> l.indexOf('=') > 0)
        .collect(
            Collectors.toMap(
                l -> l.substring(0, l.indexOf('=')),
                l -> l.substring(l.indexOf('=') + 1),
                (a, b) -> b));
  }

  @Test
  void theProviderGetsTheCurrentSpansTraceparent() {
    withTracing(runner(), new W3c(true))
        .run(
            context -> {
              assertThat(context).hasBean("loopxTraceContext");
              Loopx loopx = context.getBean(Loopx.class);
              Map.Entry<String, Map<String, String>> seen =
                  installInSpan(context.getBean(Tracer.class), loopx, tmp);
              String traceId = W3c.pad(seen.getKey(), 32);
              assertThat(traceId).isNotEqualTo("0".repeat(32));
              assertThat(seen.getValue().get("TRACEPARENT"))
                  .matches("00-" + traceId + "-[0-9a-f]{16}-01");
              assertThat(seen.getValue().get("TRACESTATE")).isEqualTo("loopx=test");
            });
  }

  @Test
  void theApplicationsOwnSourceWins() {
    withTracing(runner(), new W3c(true))
        .withBean(
            LoopxBuilderCustomizer.class, () -> builder -> builder.traceContext(Optional::empty))
        .run(
            context -> {
              assertThat(context).hasBean("loopxTraceContext");
              Map.Entry<String, Map<String, String>> seen =
                  installInSpan(context.getBean(Tracer.class), context.getBean(Loopx.class), tmp);
              assertThat(seen.getValue()).doesNotContainKey("TRACEPARENT");
            });
  }

  @Test
  void outsideASpanTheProviderGetsNone() {
    withTracing(runner(), new W3c(true))
        .run(
            context -> {
              Path dir = Fixtures.installSh(context.getBean(Loopx.class), tmp);
              assertThat(probeEnvironment(dir)).doesNotContainKeys("TRACEPARENT", "TRACESTATE");
            });
  }

  @Test
  void aPropagationWithoutTraceparentGivesNone() {
    withTracing(runner(), new W3c(false))
        .run(
            context -> {
              assertThat(context).hasBean("loopxTraceContext");
              Map.Entry<String, Map<String, String>> seen =
                  installInSpan(context.getBean(Tracer.class), context.getBean(Loopx.class), tmp);
              assertThat(seen.getValue()).doesNotContainKeys("TRACEPARENT", "TRACESTATE");
            });
  }

  @Test
  void absentWithoutTheTracingClasses() {
    runner()
        .withClassLoader(new FilteredClassLoader(Tracer.class))
        .run(
            context -> {
              assertThat(context).hasSingleBean(Loopx.class);
              assertThat(context).doesNotHaveBean("loopxTraceContext");
              Path dir = Fixtures.installSh(context.getBean(Loopx.class), tmp);
              assertThat(probeEnvironment(dir)).doesNotContainKey("TRACEPARENT");
            });
  }

  @Test
  void absentWithoutTheBeans() {
    runner()
        .withBean(Tracer.class, SimpleTracer::new)
        .run(
            context -> {
              assertThat(context).hasSingleBean(Loopx.class);
              assertThat(context).doesNotHaveBean("loopxTraceContext");
              Map.Entry<String, Map<String, String>> seen =
                  installInSpan(context.getBean(Tracer.class), context.getBean(Loopx.class), tmp);
              assertThat(seen.getValue()).doesNotContainKey("TRACEPARENT");
            });
    runner()
        .withBean(Propagator.class, () -> new W3c(true))
        .run(context -> assertThat(context).doesNotHaveBean("loopxTraceContext"));
  }

  @Test
  void absentWhenTheApplicationDefinesItsOwnLoopx() {
    withTracing(runner(), new W3c(true))
        .withBean(
            "ownLoopx",
            Loopx.class,
            () -> Loopx.builder().runtimeRoot(tmp.resolve("own")).build(),
            d -> d.setDestroyMethodName("close"))
        .run(
            context -> {
              assertThat(context).hasSingleBean(Loopx.class);
              assertThat(context).doesNotHaveBean("loopxTraceContext");
            });
  }

  /**
   * A test propagation: writes W3C {@code traceparent} (sampled) and {@code tracestate} from the
   * context, or, when {@code w3c} is false, only a B3 header.
   */
  private static final class W3c implements Propagator {
    private final boolean w3c;

    W3c(boolean w3c) {
      this.w3c = w3c;
    }

    static String pad(String hex, int length) {
      return "0".repeat(Math.max(0, length - hex.length())) + hex;
    }

    @Override
    public List<String> fields() {
      return w3c ? List.of("traceparent", "tracestate") : List.of("b3");
    }

    @Override
    public <C> void inject(TraceContext context, C carrier, Setter<C> setter) {
      String traceId = pad(context.traceId(), 32);
      String spanId = pad(context.spanId(), 16);
      if (w3c) {
        setter.set(carrier, "traceparent", "00-" + traceId + "-" + spanId + "-01");
        setter.set(carrier, "tracestate", "loopx=test");
      } else {
        setter.set(carrier, "b3", traceId + "-" + spanId + "-1");
      }
    }

    @Override
    public <C> Span.Builder extract(C carrier, Getter<C> getter) {
      return Span.Builder.NOOP;
    }
  }
}
