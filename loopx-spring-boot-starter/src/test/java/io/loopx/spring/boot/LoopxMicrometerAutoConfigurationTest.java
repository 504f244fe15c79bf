package io.loopx.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.spi.BuiltinContribution;
import io.loopx.micrometer.LoopxMicrometer;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@link LoopxMicrometerAutoConfiguration}: present with loopx-micrometer and the application's
 * registries (observations of real calls, the gauges bound to the auto-configured {@link Loopx}),
 * absent without the module, without a registry, or when the application defines its own {@code
 * Loopx}.
 */
class LoopxMicrometerAutoConfigurationTest {
  @TempDir Path tmp;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                LoopxMicrometerAutoConfiguration.class, LoopxAutoConfiguration.class))
        .withPropertyValues("loopx.runtime-root=" + tmp.resolve("root"));
  }

  private ApplicationContextRunner withRegistries(ApplicationContextRunner runner) {
    return runner
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(
            ObservationRegistry.class,
            () -> {
              TestObservationRegistry registry = TestObservationRegistry.create();
              return registry;
            });
  }

  @Test
  void observesEveryCallAndBindsTheWorkerGaugesToTheAutoConfiguredLoopx() {
    withRegistries(runner())
        .withBean(BuiltinContribution.class, Fixtures.Catalog::new)
        .withBean(DomainPolicy.class, DomainPolicy::allowAll)
        .run(
            context -> {
              assertThat(context).hasSingleBean(LoopxMicrometer.class);
              TestObservationRegistry observations =
                  (TestObservationRegistry) context.getBean(ObservationRegistry.class);
              MeterRegistry meters = context.getBean(MeterRegistry.class);
              observations
                  .observationConfig()
                  .observationHandler(new DefaultMeterObservationHandler(meters));
              Loopx loopx = context.getBean(Loopx.class);

              Fixtures.installWorker(loopx, tmp);
              assertThat(loopx.dispatch(Fixtures.recall("one"), Mode.EXECUTE).ok()).isTrue();

              TestObservationRegistryAssert.assertThat(observations)
                  .hasObservationWithNameEqualTo("loopx.dispatch")
                  .that()
                  .hasLowCardinalityKeyValue("path", "worker")
                  .hasLowCardinalityKeyValue("extension", "warm-recall");
              TestObservationRegistryAssert.assertThat(observations)
                  .hasObservationWithNameEqualTo("loopx.lifecycle");
              // the gauges were bound once every singleton existed: one live worker
              assertThat(
                      meters
                          .get(LoopxMicrometer.WORKERS_PROCESSES)
                          .tag("extension", "warm-recall")
                          .gauge()
                          .value())
                  .isEqualTo(1.0);
              LoopxMicrometer micrometer = context.getBean(LoopxMicrometer.class);
              assertThatThrownBy(() -> micrometer.bindTo(loopx))
                  .isInstanceOf(IllegalStateException.class)
                  .hasMessageContaining("bound to a Loopx already");
            });
  }

  @Test
  void absentWithoutTheModule() {
    withRegistries(runner())
        .withClassLoader(new FilteredClassLoader(LoopxMicrometer.class))
        .run(
            context -> {
              assertThat(context).hasSingleBean(Loopx.class);
              assertThat(context).doesNotHaveBean("loopxMicrometer");
            });
  }

  @Test
  void absentWithoutTheRegistries() {
    runner()
        .run(
            context -> {
              assertThat(context).hasSingleBean(Loopx.class);
              assertThat(context).doesNotHaveBean(LoopxMicrometer.class);
            });
    runner()
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(context -> assertThat(context).doesNotHaveBean(LoopxMicrometer.class));
  }

  @Test
  void absentWhenTheApplicationDefinesItsOwnLoopx() {
    withRegistries(runner())
        .withBean(
            "ownLoopx",
            Loopx.class,
            () -> Loopx.builder().runtimeRoot(tmp.resolve("own")).build(),
            d -> d.setDestroyMethodName("close"))
        .run(
            context -> {
              assertThat(context).hasSingleBean(Loopx.class);
              assertThat(context).doesNotHaveBean(LoopxMicrometer.class);
            });
  }
}
