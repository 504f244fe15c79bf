package io.loopx.spring.boot;

import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.core.Ordered;

/**
 * Makes the {@code loopx} health indicator a member of the {@code readiness} health group, where
 * one exists (Kubernetes probes, or {@code management.endpoint.health.probes.enabled=true}, or a
 * {@code readiness} group of the application's own), and of no other group it does not already
 * include: the {@code liveness} group never gets it, so one extension that is not ready takes the
 * instance out of the load balancer and never gets it restarted
 * (docs/spring-boot.md#health-and-readiness). Runs after Spring Boot's probe groups are added
 * (lowest precedence).
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public class LoopxReadinessGroup implements HealthEndpointGroupsPostProcessor, Ordered {
  /** The health contributor's name (the indicator's bean name). */
  public static final String CONTRIBUTOR = "loopx";

  /** The group it joins. */
  public static final String READINESS = "readiness";

  /** Creates the post-processor. */
  public LoopxReadinessGroup() {}

  @Override
  public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
    if (groups.get(READINESS) == null) {
      return groups;
    }
    return new Groups(groups);
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }

  /** The groups, with the readiness group joined by {@code loopx}. */
  private static final class Groups implements HealthEndpointGroups, AdditionalPathsMapper {
    private final HealthEndpointGroups delegate;

    Groups(HealthEndpointGroups delegate) {
      this.delegate = delegate;
    }

    @Override
    public HealthEndpointGroup getPrimary() {
      return delegate.getPrimary();
    }

    @Override
    public Set<String> getNames() {
      return delegate.getNames();
    }

    @Override
    public @Nullable HealthEndpointGroup get(String name) {
      HealthEndpointGroup group = delegate.get(name);
      return group != null && READINESS.equals(name) ? new Joined(group) : group;
    }

    @Override
    public @Nullable List<String> getAdditionalPaths(
        EndpointId endpointId, WebServerNamespace webServerNamespace) {
      return delegate instanceof AdditionalPathsMapper mapper
          ? mapper.getAdditionalPaths(endpointId, webServerNamespace)
          : null;
    }
  }

  /** One group that also includes {@code loopx}. */
  private static final class Joined implements HealthEndpointGroup {
    private final HealthEndpointGroup delegate;

    Joined(HealthEndpointGroup delegate) {
      this.delegate = delegate;
    }

    @Override
    public boolean isMember(String name) {
      return CONTRIBUTOR.equals(name) || delegate.isMember(name);
    }

    @Override
    public boolean showComponents(SecurityContext securityContext) {
      return delegate.showComponents(securityContext);
    }

    @Override
    public boolean showDetails(SecurityContext securityContext) {
      return delegate.showDetails(securityContext);
    }

    @Override
    public StatusAggregator getStatusAggregator() {
      return delegate.getStatusAggregator();
    }

    @Override
    public HttpCodeStatusMapper getHttpCodeStatusMapper() {
      return delegate.getHttpCodeStatusMapper();
    }

    @Override
    public @Nullable AdditionalHealthEndpointPath getAdditionalPath() {
      return delegate.getAdditionalPath();
    }
  }
}
