/**
 * The sample host service: a Spring Boot web application that puts LoopX capabilities on a request
 * path ({@code POST /capabilities/{id}}) through {@code loopx-spring-boot-starter}.
 */
@NullMarked
package io.loopx.samples.service;

import org.jspecify.annotations.NullMarked;
