package io.loopx.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.spi.BuiltinContribution;
import io.loopx.runtime.IsolationPolicy;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DomainPolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@link LoopxActuatorAutoConfiguration} with Spring Boot's health auto-configuration: the {@code
 * loopx} indicator (UP with a doctor-ready extension, DOWN with a stale one) in the readiness group
 * and never in the liveness group, and the read-only {@code loopx} endpoint, created only when
 * exposed.
 */
class LoopxActuatorTest {
  @TempDir Path tmp;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                LoopxAutoConfiguration.class,
                LoopxActuatorAutoConfiguration.class,
                ApplicationAvailabilityAutoConfiguration.class,
                EndpointAutoConfiguration.class,
                HealthContributorAutoConfiguration.class,
                HealthContributorRegistryAutoConfiguration.class,
                HealthEndpointAutoConfiguration.class,
                AvailabilityProbesAutoConfiguration.class))
        .withPropertyValues(
            "loopx.runtime-root=" + tmp.resolve("root"),
            "management.endpoint.health.show-details=always");
  }

  @Test
  void upWhenEveryEnabledExtensionIsDoctorReadyAndDownWhenOneIsStale() {
    runner()
        .run(
            context -> {
              LoopxHealthIndicator indicator =
                  context.getBean("loopxHealthIndicator", LoopxHealthIndicator.class);
              Health empty = indicator.health();
              assertThat(empty.getStatus()).isEqualTo(Status.UP);
              assertThat(empty.getDetails())
                  .containsEntry("store", "reachable")
                  .containsEntry("notReady", List.of());

              Path dir = Fixtures.installSh(context.getBean(Loopx.class), tmp);
              Health ready = indicator.health();
              assertThat(ready.getStatus()).isEqualTo(Status.UP);
              assertThat(ready.getDetails())
                  .containsEntry("enabled", List.of("demo-sh"))
                  .containsEntry("notReady", List.of());

              Fixtures.replaceShEntrypoint(dir);
              Health stale = indicator.health();
              assertThat(stale.getStatus()).isEqualTo(Status.DOWN);
              assertThat(stale.getDetails())
                  .containsEntry("store", "reachable")
                  .containsEntry("notReady", List.of("demo-sh"));

              // a disabled extension is not a readiness problem
              context.getBean(Loopx.class).disable(Fixtures.SH, Mode.EXECUTE);
              assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
            });
  }

  @Test
  void withProbesTheReadinessGroupIncludesLoopxAndTheLivenessGroupNever() {
    runner()
        .withPropertyValues("management.endpoint.health.probes.enabled=true")
        .run(
            context -> {
              HealthEndpointGroups groups = context.getBean(HealthEndpointGroups.class);
              assertThat(groups.get("readiness").isMember("loopx")).isTrue();
              assertThat(groups.get("readiness").isMember("readinessState")).isTrue();
              assertThat(groups.get("liveness").isMember("loopx")).isFalse();
              assertThat(groups.get("liveness").isMember("livenessState")).isTrue();

              // the application started: live and accepting traffic
              AvailabilityChangeEvent.publish(context, LivenessState.CORRECT);
              AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
              HealthEndpoint endpoint = context.getBean(HealthEndpoint.class);
              Path dir = Fixtures.installSh(context.getBean(Loopx.class), tmp);
              assertThat(endpoint.healthForPath("readiness").getStatus()).isEqualTo(Status.UP);

              Fixtures.replaceShEntrypoint(dir);
              assertThat(endpoint.healthForPath("readiness").getStatus()).isEqualTo(Status.DOWN);
              assertThat(endpoint.healthForPath("liveness").getStatus()).isEqualTo(Status.UP);
              assertThat(endpoint.healthForPath("readiness", "loopx").getStatus())
                  .isEqualTo(Status.DOWN);
            });
  }

  @Test
  void byDefaultSpringBootsProbeGroupsExistAndOnlyReadinessIncludesLoopx() {
    runner()
        .run(
            context -> {
              HealthEndpointGroups groups = context.getBean(HealthEndpointGroups.class);
              assertThat(groups.get("readiness").isMember("loopx")).isTrue();
              assertThat(groups.get("liveness").isMember("loopx")).isFalse();
              // the primary group (/actuator/health) has every indicator, as Spring Boot does
              assertThat(groups.getPrimary().isMember("loopx")).isTrue();
            });
    runner()
        .withPropertyValues("management.endpoint.health.probes.enabled=false")
        .run(
            context -> {
              HealthEndpointGroups groups = context.getBean(HealthEndpointGroups.class);
              assertThat(groups.get("readiness")).isNull();
              assertThat(groups.get("liveness")).isNull();
            });
  }

  @Test
  void anApplicationReadinessGroupIsJoinedAndItsLivenessGroupLeftAlone() {
    runner()
        .withPropertyValues(
            "management.endpoint.health.group.readiness.include=ping",
            "management.endpoint.health.group.liveness.include=*")
        .run(
            context -> {
              HealthEndpointGroups groups = context.getBean(HealthEndpointGroups.class);
              assertThat(groups.get("readiness").isMember("loopx")).isTrue();
              assertThat(groups.get("readiness").isMember("ping")).isTrue();
              // the application's own choice ("*") is not second-guessed
              assertThat(groups.get("liveness").isMember("loopx")).isTrue();
            });
    runner()
        .withPropertyValues("management.endpoint.health.group.liveness.include=ping")
        .run(
            context -> {
              HealthEndpointGroups groups = context.getBean(HealthEndpointGroups.class);
              assertThat(groups.get("readiness").isMember("loopx")).isTrue();
              assertThat(groups.get("liveness").isMember("loopx")).isFalse();
            });
  }

  @Test
  void theIndicatorCanBeTurnedOff() {
    runner()
        .withPropertyValues("management.health.loopx.enabled=false")
        .run(
            context -> {
              assertThat(context).hasSingleBean(Loopx.class);
              assertThat(context).doesNotHaveBean(LoopxHealthIndicator.class);
            });
  }

  @Test
  void theIndicatorReportsTheApplicationsOwnLoopx() {
    runner()
        .withBean(
            "ownLoopx",
            Loopx.class,
            () ->
                Loopx.builder()
                    // Not about isolation; the package lies in a 0700 temporary directory.
                    .isolation(IsolationPolicy.OFF)
                    .runtimeRoot(tmp.resolve("own"))
                    .build(),
            d -> d.setDestroyMethodName("close"))
        .run(
            context -> {
              assertThat(context).hasSingleBean(Loopx.class);
              Fixtures.installSh(context.getBean(Loopx.class), tmp);
              assertThat(
                      context
                          .getBean("loopxHealthIndicator", LoopxHealthIndicator.class)
                          .health()
                          .getDetails())
                  .containsEntry("enabled", List.of("demo-sh"));
            });
  }

  @Test
  void theEndpointIsNotCreatedUnlessExposed() {
    runner().run(context -> assertThat(context).doesNotHaveBean(LoopxEndpoint.class));
  }

  @Test
  void theExposedEndpointListsExtensionsRevisionsReadinessAndWorkerPools() {
    runner()
        .withPropertyValues("management.endpoints.web.exposure.include=health,loopx")
        .withBean(BuiltinContribution.class, Fixtures.Catalog::new)
        .withBean(DomainPolicy.class, DomainPolicy::allowAll)
        .run(
            context -> {
              assertThat(context).hasSingleBean(LoopxEndpoint.class);
              Loopx loopx = context.getBean(Loopx.class);
              Path sh = Fixtures.installSh(loopx, tmp);
              Fixtures.installWorker(loopx, tmp);
              assertThat(loopx.dispatch(Fixtures.recall("one"), Mode.EXECUTE).ok()).isTrue();
              Fixtures.replaceShEntrypoint(sh);

              LoopxEndpoint.Report report = context.getBean(LoopxEndpoint.class).report();
              assertThat(report.version()).isEqualTo(Loopx.VERSION);
              assertThat(report.extensions())
                  .extracting(LoopxEndpoint.Extension::id, LoopxEndpoint.Extension::doctorReady)
                  .containsExactly(
                      org.assertj.core.groups.Tuple.tuple("demo-sh", false),
                      org.assertj.core.groups.Tuple.tuple("warm-recall", true));
              assertThat(report.extensions().get(0).activeRevision())
                  .isEqualTo(loopx.list().extensions().get(0).activeRevision().value());
              assertThat(report.workerPools()).hasSize(1);
              LoopxEndpoint.WorkerPool pool = report.workerPools().get(0);
              assertThat(pool.extension()).isEqualTo("warm-recall");
              assertThat(pool.processes()).isEqualTo(1);
              assertThat(pool.inFlight()).isZero();
              assertThat(Map.of("maxProcesses", pool.maxProcesses()))
                  .containsEntry("maxProcesses", loopx.workerPools().get(0).maxProcesses());
            });
  }
}
