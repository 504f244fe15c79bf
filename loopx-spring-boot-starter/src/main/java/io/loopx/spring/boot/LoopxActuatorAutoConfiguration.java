package io.loopx.spring.boot;

import io.loopx.runtime.Loopx;
import org.apiguardian.api.API;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The actuator side (docs/spring-boot.md): the {@code loopx} health indicator, joined to the
 * readiness group only, and the read-only {@code loopx} endpoint, each when its Spring Boot module
 * is on the class path and a {@link Loopx} bean exists (the auto-configured one or the
 * application's own).
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
@AutoConfiguration(
    after = LoopxAutoConfiguration.class,
    // the readiness group is joined after Spring Boot's probe groups were added
    afterName =
        "org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration")
@ConditionalOnBean(Loopx.class)
public class LoopxActuatorAutoConfiguration {

  /** Creates the auto-configuration (Spring calls it). */
  public LoopxActuatorAutoConfiguration() {}

  /** The health indicator ({@code management.health.loopx.enabled}, default on). */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  @ConditionalOnEnabledHealthIndicator("loopx")
  public static class Health {

    /** Creates the configuration (Spring calls it). */
    public Health() {}

    /**
     * The indicator: bean {@code loopxHealthIndicator}, health contributor {@code loopx} (Spring
     * Boot drops the {@code HealthIndicator} suffix).
     */
    @Bean
    @ConditionalOnMissingBean(name = "loopxHealthIndicator")
    public LoopxHealthIndicator loopxHealthIndicator(Loopx loopx) {
      return new LoopxHealthIndicator(loopx);
    }

    /** Joins the indicator to the readiness group (never liveness). */
    @Bean
    public static LoopxReadinessGroup loopxReadinessGroup() {
      return new LoopxReadinessGroup();
    }
  }

  /** The endpoint, created only when exposed (not over the web unless the application opts in). */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(Endpoint.class)
  @ConditionalOnAvailableEndpoint(LoopxEndpoint.class)
  public static class EndpointConfiguration {

    /** Creates the configuration (Spring calls it). */
    public EndpointConfiguration() {}

    /** The endpoint. */
    @Bean
    @ConditionalOnMissingBean
    public LoopxEndpoint loopxEndpoint(Loopx loopx) {
      return new LoopxEndpoint(loopx);
    }
  }
}
