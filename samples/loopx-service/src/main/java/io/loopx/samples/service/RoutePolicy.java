package io.loopx.samples.service;

import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import org.springframework.stereotype.Component;

/**
 * The service's domain policy (collected by the starter): it allows exactly the actions of the
 * configured routes, on their own capability, and denies everything else.
 */
@Component
public class RoutePolicy implements DomainPolicy {
  private final ServiceProperties properties;

  /**
   * Creates the policy.
   *
   * @param properties the routes
   */
  public RoutePolicy(ServiceProperties properties) {
    this.properties = properties;
  }

  @Override
  public Decision decide(DispatchRequest request) {
    ServiceProperties.Route route = properties.capabilities().get(request.capabilityId().value());
    if (route != null && route.action().equals(request.action().value())) {
      return Decision.allow();
    }
    return Decision.deny("the service routes no such action");
  }
}
