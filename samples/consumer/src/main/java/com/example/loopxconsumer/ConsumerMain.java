package com.example.loopxconsumer;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.KindToken;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Dispatches a built-in capability end to end (docs/dispatch.md) through the published LoopX
 * artifacts: a {@link BuiltinContribution}, a domain policy that allows exactly its action, and
 * {@code Loopx.dispatch(request, Mode.EXECUTE)}. Prints the receipt; exits 0 only when the receipt
 * is ok and carries the provider's answer.
 */
public final class ConsumerMain {
  static final CapabilityId CAPABILITY = CapabilityId.of("consumer-sum");
  static final ProtocolId PROTOCOL = ProtocolId.of("consumer_sum_v0");
  static final ActionToken ACTION = ActionToken.of("consumer.sum");
  static final Permission PERMISSION = Permission.of("consumer.compute");

  private ConsumerMain() {}

  /** The host's built-in contribution: the {@code consumer-sum} capability and its handler. */
  static final class SumContribution implements BuiltinContribution {
    @Override
    public String id() {
      return "consumer-sum";
    }

    @Override
    public void register(RegistrationContext context) {
      context.addCapability(
          new ProvidedCapability(
              CAPABILITY,
              KindToken.of("compute_contract"),
              "Sum",
              "active",
              Visibility.PUBLIC,
              "Adds two numbers.",
              "Dispatch one sum.",
              Optional.of("the release consumer check"),
              Optional.of("loopx-consumer"),
              Map.of()));
      context.addImplementation(
          CAPABILITY,
          PROTOCOL,
          request -> {
            ObjectNode response = JsonNodeFactory.instance.objectNode();
            response.put("sum", request.get("a").asInt() + request.get("b").asInt());
            return response;
          });
    }
  }

  /**
   * Runs one governed dispatch in a temporary runtime root.
   *
   * @param args ignored
   * @throws IOException if the temporary runtime root cannot be created or removed
   */
  public static void main(String[] args) throws IOException {
    Path root = Files.createTempDirectory("loopx-consumer");
    int status;
    try (Loopx loopx =
        Loopx.builder()
            .runtimeRoot(root)
            .builtin(new SumContribution())
            .domainPolicy(
                request ->
                    request.action().equals(ACTION)
                        ? DomainPolicy.Decision.allow()
                        : DomainPolicy.Decision.deny("only " + ACTION.value()))
            .build()) {
      ObjectNode scope = JsonNodeFactory.instance.objectNode();
      scope.put("capability_id", CAPABILITY.value());
      scope.put("operation", "sum");
      DispatchRequest request =
          DispatchRequest.builder(CAPABILITY, PROTOCOL, ACTION)
              .scope(scope)
              .permission(PERMISSION)
              .input(
                  "{\"schema_version\":\"consumer_sum_request_v0\",\"a\":2,\"b\":3}"
                      .getBytes(StandardCharsets.UTF_8))
              .build();
      DispatchReceipt receipt = loopx.dispatch(request, Mode.EXECUTE);
      String json = receipt.toJson().toString();
      System.out.println(json);
      System.out.println(
          "module: " + Loopx.class.getModule().getName() + " (named: "
              + Loopx.class.getModule().isNamed() + ")");
      status = receipt.ok() && json.contains("\"sum\":5") ? 0 : 1;
    } finally {
      try (Stream<Path> tree = Files.walk(root)) {
        tree.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    System.exit(status);
  }
}
