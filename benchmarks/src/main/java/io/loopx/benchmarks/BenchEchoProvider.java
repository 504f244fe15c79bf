package io.loopx.benchmarks;

import io.loopx.api.ActionToken;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.provider.ProviderHandler;
import io.loopx.api.provider.ProviderMain;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code java_main} provider of {@link WorkerBenchmark}: verifies the execution envelope of
 * each request (action {@code bench.echo}, the echo scope, its id and revision from the
 * environment), then answers {@code {"ok":true,"schema_version":"bench_echo_response_v0",
 * "echo":<the bare request>}}. One-shot or, with {@code --loopx-worker}, as a warm worker.
 */
public final class BenchEchoProvider implements ProviderHandler {
  static final ActionToken ACTION = ActionToken.of("bench.echo");

  private final EnvelopeVerifier.Expectation expectation =
      EnvelopeVerifier.Expectation.fromEnvironment(ACTION, scope());

  private BenchEchoProvider() {}

  /** Runs the provider. */
  public static void main(String[] args) {
    ProviderMain.run(args, new BenchEchoProvider());
  }

  /** The scope the host binds and the provider verifies. */
  static ObjectNode scope() {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", WorkerBenchmark.CAPABILITY.value());
    scope.put("operation", "echo");
    return scope;
  }

  @Override
  public String responseSchemaVersion() {
    return "bench_echo_response_v0";
  }

  @Override
  public void doctor() {
    // nothing to load
  }

  @Override
  public ObjectNode handle(ObjectNode request) {
    ObjectNode bare = EnvelopeVerifier.verify(request, expectation);
    ObjectNode response = JsonNodeFactory.instance.objectNode();
    response.put("ok", true);
    response.put("schema_version", responseSchemaVersion());
    response.set("echo", bare);
    return response;
  }
}
