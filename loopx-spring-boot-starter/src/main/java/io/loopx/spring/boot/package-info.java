/**
 * Spring Boot auto-configuration of one {@link io.loopx.runtime.Loopx} bean from {@code loopx.*}
 * properties, a readiness health indicator and a read-only actuator endpoint (docs/spring-boot.md).
 */
@NullMarked
package io.loopx.spring.boot;

import org.jspecify.annotations.NullMarked;
