package io.loopx.samples.service;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** The sample host service's entry point (samples/loopx-service/README.md). */
@SpringBootApplication
@EnableConfigurationProperties(ServiceProperties.class)
public class LoopxServiceApplication {

  /**
   * Starts the service.
   *
   * @param args Spring Boot arguments, e.g. {@code --server.port=8081}
   */
  public static void main(String[] args) {
    SpringApplication.run(LoopxServiceApplication.class, args);
  }
}
