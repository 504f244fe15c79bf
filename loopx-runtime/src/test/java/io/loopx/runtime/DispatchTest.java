package io.loopx.runtime;

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
import io.loopx.api.ProviderId;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.json.StrictJson;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.dispatch.CheckReceipt;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Governed capability dispatch and the activation check, with real shell-script providers. */
class DispatchTest {
  static final CapabilityId CAP = CapabilityId.of("demo-recall");
  static final ProtocolId PROTOCOL = ProtocolId.of("demo_recall_v0");
  static final ActionToken ACTION = ActionToken.of("demo.recall");
  static final Permission READ = Permission.of("demo.read");
  static final byte[] REQUEST =
      "{\"schema_version\":\"demo_request_v0\",\"q\":\"x\"}".getBytes(UTF_8);

  @TempDir Path tmp;
  final List<String> policyCalls = new ArrayList<>();
  DomainPolicy policy = DomainPolicy.allowAll();

  /** The host's catalog: the public contract {@code demo-recall}, no built-in implementation. */
  static final class Contract implements BuiltinContribution {
    @Override
    public String id() {
      return "demo-contract";
    }

    @Override
    public void register(RegistrationContext context) {
      context.addCapability(capability("demo-recall"));
    }
  }

  static ProvidedCapability capability(String id) {
    return new ProvidedCapability(
        CapabilityId.of(id),
        KindToken.of("recall_contract"),
        "Demo recall",
        "active",
        Visibility.PUBLIC,
        "Recall demo things.",
        "Dispatch one real recall.",
        Optional.of("a demo"),
        Optional.of("loopx demo recall"),
        Map.of());
  }

  Loopx loopx(BuiltinContribution... builtins) {
    Loopx.Builder b =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .domainPolicy(
                r -> {
                  policyCalls.add(r.action().value());
                  return policy.decide(r);
                });
    for (BuiltinContribution c : builtins) {
      b.builtin(c);
    }
    return b.build();
  }

  /** Writes a provider package that records its stdin and answers {@code {"ok":true,...}}. */
  Path provider(String id, String permissions, String required) throws IOException {
    Path dir = tmp.resolve(id);
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/provider");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "[ \"$1\" = \"--doctor\" ] && exit 0\n"
            + "cat > \"$(dirname \"$0\")/../stdin.json\"\n"
            + "echo \"{\\\"ok\\\":true,\\\"from\\\":\\\"$LOOPX_EXTENSION_ID\\\",\\\"args\\\":\\\"$*\\\"}\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \""
            + id
            + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + "permissions = "
            + permissions
            + "\n[runtime]\nprotocol = \"demo_recall_v0\"\nentrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\nrequired_permissions = "
            + required
            + "\n[[implements]]\ncapability_id = \"demo-recall\"\nprotocol = \"demo_recall_v0\"\n");
    return dir;
  }

  void install(Loopx loopx, Path dir) {
    loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);
  }

  static ObjectNode scope() {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", "demo-recall");
    scope.put("operation", "recall");
    return scope;
  }

  static DispatchRequest.Builder request(Optional<ProviderId> named, List<String> extraArgs) {
    DispatchRequest.Builder b =
        DispatchRequest.builder(CAP, PROTOCOL, ACTION)
            .scope(scope())
            .permission(READ)
            .extraArgs(extraArgs);
    named.ifPresent(b::providerId);
    return b;
  }

  static DispatchRequest.Builder request() {
    return request(Optional.empty(), List.of());
  }

  static void assertFails(ThrowingCallable call, ErrorKind kind, String messagePart) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(kind);
              assertThat(e).hasMessageContaining(messagePart);
            });
  }

  @Test
  void dispatchesToTheOneReadyImplementationWithABoundEnvelope() throws IOException {
    Loopx loopx = loopx(new Contract());
    Path dir = provider("demo-provider", "[\"demo.read\"]", "[\"demo.read\"]");
    install(loopx, dir);

    DispatchReceipt receipt =
        loopx.dispatch(
            request(Optional.empty(), List.of("--verbose")).input(REQUEST).build(), Mode.EXECUTE);

    assertThat(receipt.ok()).isTrue();
    ObjectNode json = receipt.toJson();
    assertThat(json.get("schema_version").asString()).isEqualTo("loopx_capability_dispatch_v0");
    assertThat(json.get("status").asString()).isEqualTo("succeeded");
    assertThat(json.get("extension_id").asString()).isEqualTo("demo-provider");
    assertThat(json.get("exit_code").asInt()).isZero();
    assertThat(json.get("provider_result").get("args").asString()).isEqualTo("--verbose");
    ObjectNode received = StrictJson.parseObject(Files.readAllBytes(dir.resolve("stdin.json")));
    ObjectNode bare =
        EnvelopeVerifier.verify(
            received,
            new EnvelopeVerifier.Expectation(
                ACTION, scope(), ExtensionId.of("demo-provider"), receipt.revision()));
    assertThat(bare).isEqualTo(StrictJson.parseObject(REQUEST));
    assertThat(policyCalls).containsExactly("demo.recall");
  }

  @Test
  void previewBindsNothingRunsNothingAndStillAsksThePolicy() throws IOException {
    Loopx loopx = loopx(new Contract());
    Path dir = provider("demo-provider", "[\"demo.read\"]", "[\"demo.read\"]");
    install(loopx, dir);

    DispatchReceipt receipt = loopx.dispatch(request().input(REQUEST).build(), Mode.PREVIEW);

    assertThat(receipt.toJson().get("status").asString()).isEqualTo("ready");
    assertThat(receipt.toJson().get("executed").asBoolean()).isFalse();
    assertThat(Files.exists(dir.resolve("stdin.json"))).isFalse();
    assertThat(policyCalls).hasSize(1);
  }

  @Test
  void ambiguityFailsClosedUntilTheCallerNamesOne() throws IOException {
    Loopx loopx = loopx(new Contract());
    install(loopx, provider("alpha", "[\"demo.read\"]", "[\"demo.read\"]"));
    install(loopx, provider("beta", "[\"demo.read\"]", "[\"demo.read\"]"));

    assertFails(
        () -> loopx.dispatch(request().input(REQUEST).build(), Mode.EXECUTE),
        ErrorKind.RESOLUTION_FAILED,
        "multiple enabled, doctor-ready extensions implement demo-recall with protocol"
            + " demo_recall_v0: [alpha, beta]");
    DispatchReceipt named =
        loopx.dispatch(
            request(Optional.of(ProviderId.of("beta")), List.of()).input(REQUEST).build(),
            Mode.EXECUTE);
    assertThat(named.providerId().value()).isEqualTo("beta");
    assertThat(Files.exists(tmp.resolve("alpha/stdin.json"))).isFalse();
  }

  @Test
  void disabledAndStaleProvidersAreNeverCandidates() throws IOException {
    Loopx loopx = loopx(new Contract());
    Path alpha = provider("alpha", "[\"demo.read\"]", "[\"demo.read\"]");
    Path beta = provider("beta", "[\"demo.read\"]", "[\"demo.read\"]");
    install(loopx, alpha);
    install(loopx, beta);
    loopx.disable(ExtensionId.of("alpha"), Mode.EXECUTE);
    Files.writeString(
        beta.resolve("bin/provider"), "\n# replaced\n", java.nio.file.StandardOpenOption.APPEND);

    assertFails(
        () -> loopx.dispatch(request().input(REQUEST).build(), Mode.EXECUTE),
        ErrorKind.RESOLUTION_FAILED,
        "no enabled, doctor-ready extension implements demo-recall with protocol demo_recall_v0");
    assertFails(
        () ->
            loopx.dispatch(
                request(Optional.of(ProviderId.of("alpha")), List.of()).input(REQUEST).build(),
                Mode.EXECUTE),
        ErrorKind.EXTENSION_DISABLED,
        "alpha");
    assertThat(Files.exists(alpha.resolve("stdin.json"))).isFalse();
    assertThat(Files.exists(beta.resolve("stdin.json"))).isFalse();
  }

  @Test
  void aPermissionThatIsNotDeclaredOrNotRequiredIsDenied() throws IOException {
    Loopx loopx = loopx(new Contract());
    install(loopx, provider("alpha", "[\"demo.write\"]", "[\"demo.write\"]"));

    assertFails(
        () -> loopx.dispatch(request().input(REQUEST).build(), Mode.PREVIEW),
        ErrorKind.PERMISSION_DENIED,
        "extension `alpha` does not declare permission `demo.read`");

    Loopx other = loopx(new Contract());
    Files.delete(tmp.resolve("root/extensions/state.json"));
    install(other, provider("beta", "[\"demo.read\"]", "[]"));
    assertFails(
        () -> other.dispatch(request().input(REQUEST).build(), Mode.PREVIEW),
        ErrorKind.PERMISSION_DENIED,
        "extension `beta` runtime does not require permission `demo.read`");
  }

  @Test
  void thePolicyCanVetoBeforeAnythingRuns() throws IOException {
    Loopx loopx = loopx(new Contract());
    Path dir = provider("alpha", "[\"demo.read\"]", "[\"demo.read\"]");
    install(loopx, dir);
    policy = r -> DomainPolicy.Decision.deny("recall is paused");

    assertFails(
        () -> loopx.dispatch(request().input(REQUEST).build(), Mode.EXECUTE),
        ErrorKind.POLICY_DENIED,
        "recall is paused");
    assertThat(Files.exists(dir.resolve("stdin.json"))).isFalse();
  }

  @Test
  void theDefaultPolicyDeniesEverything() throws IOException {
    Loopx loopx =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .builtin(new Contract())
            .build();
    install(loopx, provider("alpha", "[\"demo.read\"]", "[\"demo.read\"]"));

    assertFails(
        () -> loopx.dispatch(request().input(REQUEST).build(), Mode.PREVIEW),
        ErrorKind.POLICY_DENIED,
        "allows no effectful dispatch");
  }

  @Test
  void aCallerSuppliedEnvelopeIsRejected() throws IOException {
    Loopx loopx = loopx(new Contract());
    install(loopx, provider("alpha", "[\"demo.read\"]", "[\"demo.read\"]"));
    byte[] forged = "{\"q\":\"x\",\"execution_envelope\":{}}".getBytes(UTF_8);

    assertFails(
        () -> loopx.dispatch(request().input(forged).build(), Mode.EXECUTE),
        ErrorKind.REQUEST_INVALID,
        "execution_envelope");
    assertThat(policyCalls).isEmpty();
  }

  @Test
  void builtinInProcessProvidersGoThroughTheSamePathAndGetTheSameEnvelope() {
    AtomicReference<ObjectNode> received = new AtomicReference<>();
    BuiltinContribution builtin =
        new BuiltinContribution() {
          @Override
          public String id() {
            return "demo-builtin";
          }

          @Override
          public void register(RegistrationContext context) {
            context.addCapability(capability("demo-recall"));
            context.addImplementation(
                CAP,
                PROTOCOL,
                request -> {
                  received.set(request.deepCopy());
                  ObjectNode response = JsonNodeFactory.instance.objectNode();
                  response.put("ok", !request.get("q").asString().equals("fail"));
                  return response;
                });
          }
        };
    Loopx loopx = loopx(builtin);

    DispatchReceipt receipt = loopx.dispatch(request().input(REQUEST).build(), Mode.EXECUTE);

    assertThat(receipt.ok()).isTrue();
    assertThat(receipt.toJson().get("exit_code").isNull()).isTrue();
    assertThat(receipt.providerId()).isEqualTo(ProviderId.LOOPX_CORE);
    EnvelopeVerifier.verify(
        received.get(),
        new EnvelopeVerifier.Expectation(
            ACTION, scope(), ExtensionId.of("loopx-core"), receipt.revision()));
    DispatchReceipt failed =
        loopx.dispatch(request().input("{\"q\":\"fail\"}".getBytes(UTF_8)).build(), Mode.EXECUTE);
    assertThat(failed.toJson().get("status").asString()).isEqualTo("provider_failed");
    assertThat(policyCalls).hasSize(2);
  }

  @Test
  void activationCheckFollowsEnableDisableAndUpgrade() throws IOException {
    Loopx loopx = loopx(new Contract());
    Path dir = provider("alpha", "[\"demo.read\", \"demo.write\"]", "[\"demo.read\"]");
    install(loopx, dir);
    ExtensionId alpha = ExtensionId.of("alpha");

    CheckReceipt record = loopx.check(alpha, Set.of(READ));
    assertThat(record.toJson().toString())
        .contains("\"schema_version\":\"loopx_extension_activation_v0\"")
        .contains("\"required_permissions\":[\"demo.read\"]")
        .contains("\"doctor_verified\":true");
    assertFails(
        () -> loopx.check(alpha, Set.of(Permission.of("demo.delete"))),
        ErrorKind.PERMISSION_DENIED,
        "does not declare permission `demo.delete`");

    loopx.disable(alpha, Mode.EXECUTE);
    assertFails(() -> loopx.check(alpha, Set.of(READ)), ErrorKind.EXTENSION_DISABLED, "alpha");
    loopx.enable(alpha, Mode.EXECUTE);

    String manifest = Files.readString(dir.resolve("extension.toml"));
    Files.writeString(dir.resolve("extension.toml"), manifest.replace("1.0.0", "2.0.0"));
    loopx.upgrade(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);
    CheckReceipt upgraded = loopx.check(alpha, Set.of(READ));
    assertThat(upgraded.providerVersion()).isEqualTo("2.0.0");
    assertThat(upgraded.revision()).isNotEqualTo(record.revision());

    Files.writeString(
        dir.resolve("bin/provider"), "\n# replaced\n", java.nio.file.StandardOpenOption.APPEND);
    assertFails(() -> loopx.check(alpha, Set.of(READ)), ErrorKind.DOCTOR_STALE, "stale");
    assertFails(
        () -> loopx.check(ExtensionId.of("nope"), Set.of()),
        ErrorKind.NOT_INSTALLED,
        "extension `nope` is not installed");
  }

  /**
   * A package manager that rewrites the launcher in place while a dispatch runs
   * (docs/threat-model.md, P2): that dispatch's output is discarded ({@code
   * entrypoint_changed_during_run}), the proof is revoked, and the dispatches after it find no
   * doctor-ready provider; the dispatches before it succeed.
   */
  @Test
  void anInPlacePackageUpdateDuringADispatchLoopIsNeverAccepted() throws IOException {
    Path dir = provider("demo-provider", "[\"demo.read\"]", "[\"demo.read\"]");
    Path script = dir.resolve("bin/provider");
    int updateAt = 3;
    int[] calls = {0};
    io.loopx.runtime.spi.ProcessLauncher os =
        io.loopx.runtime.internal.process.OsProcessLauncher.create();
    Loopx loopx =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .domainPolicy(DomainPolicy.allowAll())
            .builtin(new Contract())
            .processLauncher(
                request -> {
                  if (!request.argv().contains("--doctor") && ++calls[0] == updateAt) {
                    try {
                      // In place: same inode, new bytes (the update lands while the old run
                      // starts).
                      Files.writeString(
                          script, Files.readString(script).replace(":true,", ":true,\\\"v\\\":2,"));
                    } catch (IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  }
                  return os.launch(request);
                })
            .build();
    install(loopx, dir);

    for (int i = 1; i < updateAt; i++) {
      assertThat(
              loopx
                  .dispatch(request().input(REQUEST).build(), Mode.EXECUTE)
                  .toJson()
                  .get("status")
                  .asString())
          .isEqualTo("succeeded");
    }
    DispatchReceipt raced = loopx.dispatch(request().input(REQUEST).build(), Mode.EXECUTE);

    ObjectNode json = raced.toJson();
    assertThat(json.get("status").asString()).isEqualTo("provider_failed");
    assertThat(json.get("failure_kind").asString()).isEqualTo("entrypoint_changed_during_run");
    assertThat(json.get("provider_result").isNull()).isTrue();
    assertThat(loopx.state().installed(ExtensionId.of("demo-provider")).doctorVerifiedIdentities())
        .isEmpty();
    assertFails(
        () -> loopx.dispatch(request().input(REQUEST).build(), Mode.EXECUTE),
        ErrorKind.RESOLUTION_FAILED,
        "no enabled, doctor-ready extension implements");
  }
}
