package io.loopx.spring.boot;

import io.loopx.micrometer.LoopxMicrometer;
import io.loopx.runtime.Loopx;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.apiguardian.api.API;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Registers a {@link LoopxMicrometer} (a call observer, collected by {@link
 * LoopxAutoConfiguration}) when loopx-micrometer is on the class path and the application has an
 * {@link ObservationRegistry} and a {@link MeterRegistry} bean, and binds its worker-pool gauges to
 * the auto-configured {@link Loopx} once every singleton exists. Backs off when the application
 * defines its own {@code Loopx} (it then wires its own observer) or its own {@code
 * LoopxMicrometer}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
@AutoConfiguration(
    before = LoopxAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
      "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"
    })
@ConditionalOnClass({LoopxMicrometer.class, MeterRegistry.class, ObservationRegistry.class})
@ConditionalOnBean({ObservationRegistry.class, MeterRegistry.class})
@ConditionalOnMissingBean({Loopx.class, LoopxMicrometer.class})
public class LoopxMicrometerAutoConfiguration {

  /** Creates the auto-configuration (Spring calls it). */
  public LoopxMicrometerAutoConfiguration() {}

  /** The observer: observations on the application's registry, meters on its meter registry. */
  @Bean
  public LoopxMicrometer loopxMicrometer(ObservationRegistry observations, MeterRegistry meters) {
    return LoopxMicrometer.of(observations, meters);
  }

  /** Binds the observer's worker-pool gauges to the {@code Loopx} built with it. */
  @Bean
  public SmartInitializingSingleton loopxMicrometerGauges(
      LoopxMicrometer micrometer, ObjectProvider<Loopx> loopx) {
    return () -> loopx.ifUnique(micrometer::bindTo);
  }
}
