package io.loopx.samples.pythonecho;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.KindToken;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.json.StrictJson;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.conformance.CheckStatus;
import io.loopx.runtime.conformance.ConformanceCheck;
import io.loopx.runtime.conformance.ConformanceReceipt;
import io.loopx.runtime.conformance.ProviderConformance;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.lifecycle.DoctorReceipt;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Python sample ({@code extension.toml} and {@code bin/provider} beside this module's pom,
 * using {@code kits/python/loopx_provider.py}) with the real runtime and real {@code python3}
 * processes: install (doctor probe), doctor, governed dispatch with a verified execution envelope,
 * the provider's own refusals (unknown request key, scope it does not expect), disable, and
 * dispatch refused; and {@code extension verify}'s conformance checks, one-shot and as a worker.
 */
class PythonEchoEndToEndTest {
  static final ExtensionId ID = ExtensionId.of("python-echo");
  static final CapabilityId CAP = CapabilityId.of("text-echo");
  static final ProtocolId PROTOCOL = ProtocolId.of("text_echo_v0");
  static final ActionToken ACTION = ActionToken.of("text_echo.echo");
  static final Permission ECHO = Permission.of("text_echo.echo");

  @TempDir Path runtimeRoot;
  private final List<String> policyCalls = new ArrayList<>();
  private final List<Loopx> opened = new ArrayList<>();

  @AfterEach
  void close() {
    opened.forEach(Loopx::close);
  }

  /** The host's catalog: the public contract {@code text-echo}; the extension implements it. */
  static final class TextEchoContract implements BuiltinContribution {
    @Override
    public String id() {
      return "text-echo-contract";
    }

    @Override
    public void register(RegistrationContext context) {
      context.addCapability(
          new ProvidedCapability(
              CAP,
              KindToken.of("echo_contract"),
              "Text echo",
              "active",
              Visibility.PUBLIC,
              "Echoes a text back.",
              "Dispatch one echo.",
              Optional.of("a demo"),
              Optional.of("loopx text-echo"),
              Map.of()));
    }
  }

  private Loopx loopx() {
    Loopx loopx =
        Loopx.builder()
            .runtimeRoot(runtimeRoot)
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .builtin(new TextEchoContract())
            .domainPolicy(
                r -> {
                  policyCalls.add(r.action().value());
                  return io.loopx.runtime.dispatch.DomainPolicy.Decision.allow();
                })
            .build();
    opened.add(loopx);
    return loopx;
  }

  private static DispatchRequest.Builder request(String operation) {
    return DispatchRequest.builder(CAP, PROTOCOL, ACTION).scope(scope(operation)).permission(ECHO);
  }

  private static ObjectNode scope(String operation) {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", CAP.value());
    scope.put("operation", operation);
    return scope;
  }

  private static byte[] body(String json) {
    return json.getBytes(UTF_8);
  }

  @Test
  void installDoctorDispatchDisableAndDispatchRefused() {
    Loopx loopx = loopx();
    LoadedManifest manifest = LoadedManifest.load(Path.of("extension.toml").toAbsolutePath());

    LifecycleReceipt installed = loopx.install(manifest, Mode.EXECUTE);
    assertThat(installed.extensionId()).isEqualTo(ID);
    assertThat(installed.doctor().orElseThrow().ready()).as(installed.toJson().toString()).isTrue();

    DoctorReceipt doctor = loopx.doctor(ID, Mode.EXECUTE);
    assertThat(doctor.ready()).as(doctor.toJson().toString()).isTrue();

    DispatchReceipt echoed =
        loopx.dispatch(
            request("echo")
                .input(
                    body(
                        "{\"schema_version\":\"text_echo_request_v0\",\"text\":\"h\u00e9llo \ud83d\ude00\"}"))
                .build(),
            Mode.EXECUTE);
    assertThat(echoed.ok()).as(echoed.toJson().toString()).isTrue();
    assertThat(echoed.providerId().value()).isEqualTo(ID.value());
    ObjectNode result = echoed.outcome().providerResult().orElseThrow();
    assertThat(result.get("text").stringValue()).isEqualTo("h\u00e9llo \ud83d\ude00");
    assertThat(result.get("length").intValue()).isEqualTo(7); // code points, not UTF-16 units
    assertThat(policyCalls).containsExactly("text_echo.echo");

    // The provider refuses a key it does not know, after verifying the envelope.
    DispatchReceipt unknown =
        loopx.dispatch(
            request("echo")
                .input(
                    body(
                        "{\"schema_version\":\"text_echo_request_v0\",\"text\":\"x\",\"shout\":true}"))
                .build(),
            Mode.EXECUTE);
    assertThat(unknown.outcome().status()).isEqualTo(RunStatus.PROVIDER_FAILED);
    assertThat(unknown.outcome().providerResult().orElseThrow().get("error").stringValue())
        .isEqualTo("request has unknown keys: `shout`");

    // A host that binds another scope than the provider expects is refused by the provider.
    DispatchReceipt otherScope =
        loopx.dispatch(
            request("delete")
                .input(body("{\"schema_version\":\"text_echo_request_v0\",\"text\":\"x\"}"))
                .build(),
            Mode.EXECUTE);
    assertThat(otherScope.outcome().status()).isEqualTo(RunStatus.PROVIDER_FAILED);
    assertThat(otherScope.outcome().providerResult().orElseThrow().get("error").stringValue())
        .isEqualTo("execution envelope scope does not match the operation");

    assertThat(loopx.disable(ID, Mode.EXECUTE).ok()).isTrue();
    assertThatThrownBy(
            () ->
                loopx.dispatch(
                    request("echo")
                        .input(body("{\"schema_version\":\"text_echo_request_v0\",\"text\":\"x\"}"))
                        .build(),
                    Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.RESOLUTION_FAILED));
    assertThat(policyCalls).hasSize(3);
  }

  @Test
  void theKitServesAsAWarmWorkerBehindTheRealPool(@TempDir Path pkg) throws IOException {
    Files.createDirectories(pkg.resolve("bin"));
    Files.copy(Path.of("bin", "provider"), pkg.resolve("bin/provider"));
    Files.copy(Path.of("bin", "loopx_provider.py"), pkg.resolve("bin/loopx_provider.py"));
    Files.writeString(
        pkg.resolve("extension.toml"),
        Files.readString(Path.of("extension.toml"))
            + "\n[runtime.worker]\nmax_processes = 1\nmax_requests = 100\n");
    Loopx loopx = loopx();
    loopx.install(LoadedManifest.load(pkg.resolve("extension.toml")), Mode.EXECUTE);
    for (int i = 0; i < 3; i++) {
      DispatchReceipt receipt =
          loopx.dispatch(
              request("echo")
                  .input(
                      body("{\"schema_version\":\"text_echo_request_v0\",\"text\":\"w" + i + "\"}"))
                  .build(),
              Mode.EXECUTE);
      assertThat(receipt.ok()).as(receipt.toJson().toString()).isTrue();
      // A worker's response has no exit code; a one-shot run's has 0.
      assertThat(receipt.outcome().exitCode()).isEmpty();
      assertThat(receipt.outcome().providerResult().orElseThrow().get("text").stringValue())
          .isEqualTo("w" + i);
    }
    DispatchReceipt refused =
        loopx.dispatch(
            request("delete")
                .input(body("{\"schema_version\":\"text_echo_request_v0\",\"text\":\"x\"}"))
                .build(),
            Mode.EXECUTE);
    assertThat(refused.outcome().status()).isEqualTo(RunStatus.PROVIDER_FAILED);
    assertThat(refused.outcome().providerResult().orElseThrow().get("error").stringValue())
        .isEqualTo("execution envelope scope does not match the operation");
  }

  @Test
  void theConformanceCheckPassesOneShotAndAsAWorker(@TempDir Path pkg) throws IOException {
    Files.createDirectories(pkg.resolve("bin"));
    Files.copy(Path.of("bin", "provider"), pkg.resolve("bin/provider"));
    Files.copy(Path.of("bin", "loopx_provider.py"), pkg.resolve("bin/loopx_provider.py"));
    Files.writeString(
        pkg.resolve("extension.toml"),
        Files.readString(Path.of("extension.toml")) + "\n[runtime.worker]\n");
    ObjectNode example =
        StrictJson.parseObject(Files.readAllBytes(Path.of("examples/request.json")));

    for (Path manifest : List.of(Path.of("extension.toml"), pkg.resolve("extension.toml"))) {
      ConformanceReceipt receipt =
          ProviderConformance.builder(LoadedManifest.load(manifest), example)
              .binding(ACTION, scope("echo"))
              .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
              .build()
              .verify();

      assertThat(receipt.ok()).as("%s", receipt.toJson()).isTrue();
      List<String> skipped =
          receipt.checks().stream()
              .filter(c -> c.status() == CheckStatus.SKIPPED)
              .map(ConformanceCheck::id)
              .toList();
      if (manifest.startsWith(pkg)) {
        assertThat(skipped).containsExactly("effect_marker_absent");
      } else {
        assertThat(skipped)
            .containsExactly(
                "effect_marker_absent",
                "worker_handshake",
                "worker_one_response_per_request",
                "worker_exits_on_eof");
      }
    }
  }
}
