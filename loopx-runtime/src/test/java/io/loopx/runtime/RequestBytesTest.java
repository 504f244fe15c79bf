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
import io.loopx.api.Revision;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.api.json.StrictJson;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.provider.ProviderMain;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.dispatch.DispatchReceipt;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.dispatch.DomainPolicy;
import io.loopx.runtime.internal.envelope.EnvelopeBinder;
import io.loopx.runtime.internal.run.RequestBody;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The exact numbers and the size as sent (docs/contract/dispatch.md#binding) through the public
 * {@link Loopx} API with real shell-script providers: the host caps the bytes it actually sends
 * (the re-serialised request, plus the execution envelope for a dispatch) at 1,000,000, the cap of
 * {@code ProviderMain}, and binds only numbers that are exactly the value the digest canonicalises.
 * A refusal is {@code request_invalid}, leaves the state file byte for byte as it was and starts no
 * provider (each provider writes a marker file first thing when it runs).
 */
class RequestBytesTest {
  static final CapabilityId CAP = CapabilityId.of("demo-recall");
  static final ProtocolId PROTOCOL = ProtocolId.of("demo_recall_v0");
  static final ActionToken ACTION = ActionToken.of("demo.recall");
  static final Permission READ = Permission.of("demo.read");
  static final int LIMIT = 1_000_000;
  static final String TOO_LARGE =
      "the request with its execution envelope exceeds the 1000000-byte limit";

  @TempDir Path tmp;

  /** The capability contract and, optionally, a built-in implementation counting its calls. */
  static final class Contract implements BuiltinContribution {
    final AtomicInteger calls = new AtomicInteger();
    final boolean implement;

    Contract(boolean implement) {
      this.implement = implement;
    }

    @Override
    public String id() {
      return "demo-contract";
    }

    @Override
    public void register(RegistrationContext context) {
      context.addCapability(
          new ProvidedCapability(
              CAP,
              KindToken.of("recall_contract"),
              "Demo recall",
              "active",
              Visibility.PUBLIC,
              "Recall demo things.",
              "Dispatch one real recall.",
              Optional.of("a demo"),
              Optional.of("loopx demo recall"),
              Map.of()));
      if (implement) {
        context.addImplementation(
            CAP,
            PROTOCOL,
            request -> {
              calls.incrementAndGet();
              return JsonNodeFactory.instance.objectNode().put("ok", true);
            });
      }
    }
  }

  Loopx loopx(Contract contract) {
    return Loopx.builder()
        .isolation(IsolationPolicy.OFF)
        .runtimeRoot(tmp.resolve("root"))
        .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
        .domainPolicy(DomainPolicy.allowAll())
        .builtin(contract)
        .build();
  }

  Path stateFile() {
    return tmp.resolve("root/extensions/state.json");
  }

  /**
   * Installs a provider that writes {@code started} and then its stdin to {@code stdin.json};
   * {@code implement} makes it a capability provider, else it is standalone.
   */
  Path install(Loopx loopx, String id, boolean implement) throws IOException {
    Path dir = tmp.resolve(id);
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/provider");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "[ \"$1\" = \"--doctor\" ] && exit 0\n"
            + "DIR=$(dirname \"$0\")/..\n"
            + ": > \"$DIR/started\"\n"
            + "cat > \"$DIR/stdin.json\"\n"
            + "echo '{\"ok\":true}'\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    String manifest =
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \""
            + id
            + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + (implement ? "permissions = [\"demo.read\"]\n" : "")
            + "[runtime]\nprotocol = \"demo_recall_v0\"\nentrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\n"
            + (implement
                ? "required_permissions = [\"demo.read\"]\n"
                    + "[[implements]]\ncapability_id = \"demo-recall\"\n"
                    + "protocol = \"demo_recall_v0\"\n"
                : "");
    Files.writeString(dir.resolve("extension.toml"), manifest);
    loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);
    return dir;
  }

  static ObjectNode scope() {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", "demo-recall");
    scope.put("operation", "recall");
    return scope;
  }

  static DispatchRequest.Builder dispatchRequest() {
    return DispatchRequest.builder(CAP, PROTOCOL, ACTION).scope(scope()).permission(READ);
  }

  /** {@code {"pad":"xx…x"}} with {@code k} x's: 10 + k bytes. */
  static byte[] padded(int k) {
    return ("{\"pad\":\"" + "x".repeat(k) + "\"}").getBytes(UTF_8);
  }

  /**
   * {@code {"v":[1e5,…,1e5],"pad":"x…x"}}: {@code n} values of 4 bytes each on the wire ({@code
   * 1E+5}) but 3 in the request, padded so that the re-serialised request is {@code compact} bytes.
   */
  static byte[] exponents(int n, int compact) {
    String values = String.join(",", java.util.Collections.nCopies(n, "1e5"));
    int fixed = "{\"v\":[],\"pad\":\"\"}".length() + 4 * n + (n - 1);
    String text = "{\"v\":[" + values + "],\"pad\":\"" + "x".repeat(compact - fixed) + "\"}";
    byte[] bytes = text.getBytes(UTF_8);
    assertThat(StrictJson.toCompactBytes(StrictJson.parseObject(bytes))).hasSize(compact);
    return bytes;
  }

  /** The size of what the host sends to {@code id} at {@code revision} for {@code request}. */
  static int boundSize(ExtensionId id, Revision revision, byte[] request) {
    return EnvelopeBinder.bindForWire(
            ACTION, scope(), id, revision, StrictJson.parseObject(request))
        .stdin()
        .length;
  }

  /**
   * Runs {@code call}, which must fail with {@code request_invalid}, state and provider untouched.
   */
  void assertRefused(ThrowingCallable call, String message, Path... providers) throws IOException {
    byte[] before = Files.readAllBytes(stateFile());
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.REQUEST_INVALID);
              assertThat(e.getMessage()).startsWith(message);
            });
    assertThat(Files.readAllBytes(stateFile())).isEqualTo(before);
    for (Path dir : providers) {
      assertThat(dir.resolve("started")).doesNotExist();
    }
  }

  static void reset(Path dir) throws IOException {
    Files.deleteIfExists(dir.resolve("started"));
    Files.deleteIfExists(dir.resolve("stdin.json"));
  }

  @Test
  void theHostCapIsTheProviderCap() {
    assertThat(RequestBody.MAX_BYTES).isEqualTo(ProviderMain.MAX_REQUEST_BYTES).isEqualTo(LIMIT);
  }

  // ---------------------------------------------------------------------------------------------
  // Dispatch: the request with its envelope

  @Test
  void aDispatchOfExactly1000000BytesWithItsEnvelopeIsSentAndOneByteMoreIsRefused()
      throws IOException {
    Loopx loopx = loopx(new Contract(false));
    Path dir = install(loopx, "demo-provider", true);
    ExtensionId id = ExtensionId.of("demo-provider");
    Revision revision = loopx.state().installed(id).activeRevision();
    int k = LIMIT - boundSize(id, revision, padded(0));
    assertThat(boundSize(id, revision, padded(k))).isEqualTo(LIMIT);

    DispatchReceipt receipt =
        loopx.dispatch(dispatchRequest().input(padded(k)).build(), Mode.EXECUTE);

    assertThat(receipt.toJson().get("status").asString()).isEqualTo("succeeded");
    byte[] received = Files.readAllBytes(dir.resolve("stdin.json"));
    assertThat(received).hasSize(LIMIT);
    EnvelopeVerifier.verify(
        StrictJson.parseObject(received),
        new EnvelopeVerifier.Expectation(ACTION, scope(), id, revision));

    reset(dir);
    for (Mode mode : Mode.values()) {
      assertRefused(
          () -> loopx.dispatch(dispatchRequest().input(padded(k + 1)).build(), mode),
          TOO_LARGE + ": 1000001 bytes",
          dir);
    }
  }

  @Test
  void aRequestJustUnderTheLimitThatItsEnvelopePushesOverIsRefused() throws IOException {
    Loopx loopx = loopx(new Contract(false));
    Path dir = install(loopx, "demo-provider", true);
    byte[] request = padded(999_890);
    assertThat(request).hasSize(999_900);

    for (Mode mode : Mode.values()) {
      assertRefused(
          () -> loopx.dispatch(dispatchRequest().input(request).build(), mode), TOO_LARGE, dir);
    }
  }

  @Test
  void aRequestOfExponentsThatGrowsWhenReSerialisedIsRefused() throws IOException {
    Loopx loopx = loopx(new Contract(false));
    Path dir = install(loopx, "demo-provider", true);
    // 1,000,000 bytes of `1e5,`: re-serialised as `1E+5,`, 1,249,997 bytes before the envelope.
    int n = (LIMIT - 7) / 4;
    StringBuilder text = new StringBuilder("{\"v\":[");
    text.append(String.join(",", java.util.Collections.nCopies(n, "1e5"))).append("]}");
    text.append(" ".repeat(LIMIT - text.length()));
    byte[] request = text.toString().getBytes(UTF_8);
    assertThat(request).hasSize(LIMIT);
    assertThat(StrictJson.toCompactBytes(StrictJson.parseObject(request))).hasSize(1_249_997);

    assertRefused(
        () -> loopx.dispatch(dispatchRequest().input(request).build(), Mode.EXECUTE),
        TOO_LARGE + ": 125",
        dir);
  }

  @Test
  void aBuiltinProviderIsHeldToTheSameCap() {
    Contract contract = new Contract(true);
    Loopx loopx = loopx(contract);
    loopx.dispatch(dispatchRequest().input(padded(10)).build(), Mode.EXECUTE);
    assertThat(contract.calls).hasValue(1);

    assertThatThrownBy(
            () -> loopx.dispatch(dispatchRequest().input(padded(999_890)).build(), Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.REQUEST_INVALID);
              assertThat(e.getMessage()).startsWith(TOO_LARGE);
            });
    assertThat(contract.calls).hasValue(1);
  }

  // ---------------------------------------------------------------------------------------------
  // Dispatch: numbers the digest binds

  @Test
  void aDispatchedNumberTheDigestWouldRoundIsRefusedAndOneItBindsIsSentAsWritten()
      throws IOException {
    Loopx loopx = loopx(new Contract(false));
    Path dir = install(loopx, "demo-provider", true);

    for (String literal : List.of("9007199254740993.0", "100.000000000000001", "1e-400")) {
      byte[] request = ("{\"q\":{\"n\":[" + literal + "]}}").getBytes(UTF_8);
      for (Mode mode : Mode.values()) {
        assertRefused(
            () -> loopx.dispatch(dispatchRequest().input(request).build(), mode),
            "request number " + new java.math.BigDecimal(literal) + " at `/q/n/0`",
            dir);
      }
    }

    byte[] request = "{\"a\":0.1,\"b\":1e5,\"c\":1.50}".getBytes(UTF_8);
    assertThat(loopx.dispatch(dispatchRequest().input(request).build(), Mode.EXECUTE).ok())
        .isTrue();
    assertThat(Files.readString(dir.resolve("stdin.json")))
        .startsWith("{\"a\":0.1,\"b\":1E+5,\"c\":1.50,\"execution_envelope\":{");
  }

  // ---------------------------------------------------------------------------------------------
  // Run: the re-serialised request

  @Test
  void aRunOfExactly1000000BytesOnTheWireIsSentAndOneByteMoreIsRefused() throws IOException {
    Loopx loopx = loopx(new Contract(false));
    Path dir = install(loopx, "demo-run", false);
    ExtensionId id = ExtensionId.of("demo-run");

    RunReceipt receipt = loopx.run(RunRequest.of(id, padded(LIMIT - 10)), Mode.EXECUTE);
    assertThat(receipt.toJson().get("status").asString()).isEqualTo("succeeded");
    assertThat(Files.readAllBytes(dir.resolve("stdin.json"))).isEqualTo(padded(LIMIT - 10));

    reset(dir);
    assertRefused(
        () -> loopx.run(RunRequest.of(id, padded(LIMIT - 9)), Mode.EXECUTE),
        "request exceeds the 1000000-byte limit",
        dir);
  }

  @Test
  void aRunRequestThatGrowsPastTheLimitIsRefusedBeforeAnyStateIsRead() throws IOException {
    Loopx loopx = loopx(new Contract(false));
    Path dir = install(loopx, "demo-run", false);
    ExtensionId id = ExtensionId.of("demo-run");
    int n = 100_000;

    byte[] atLimit = exponents(n, LIMIT);
    assertThat(atLimit.length).isLessThan(LIMIT - n + 1);
    assertThat(loopx.run(RunRequest.of(id, atLimit), Mode.EXECUTE).ok()).isTrue();
    assertThat(Files.readAllBytes(dir.resolve("stdin.json"))).hasSize(LIMIT);

    reset(dir);
    byte[] over = exponents(n, LIMIT + 1);
    assertThat(over.length).isLessThan(LIMIT);
    String message =
        "request exceeds the 1000000-byte limit once re-serialised for the provider: 1000001 bytes";
    for (Mode mode : Mode.values()) {
      assertRefused(() -> loopx.run(RunRequest.of(id, over), mode), message, dir);
    }
    // Before any state is read: an extension that is not installed gets the same refusal.
    assertRefused(
        () -> loopx.run(RunRequest.of(ExtensionId.of("not-there"), over), Mode.EXECUTE),
        message,
        dir);
  }

  @Test
  void aRunRequestIsNotDigestedSoItsNumbersPassAsWritten() throws IOException {
    Loopx loopx = loopx(new Contract(false));
    Path dir = install(loopx, "demo-run", false);

    byte[] request = "{\"n\":9007199254740993.0}".getBytes(UTF_8);
    assertThat(loopx.run(RunRequest.of(ExtensionId.of("demo-run"), request), Mode.EXECUTE).ok())
        .isTrue();
    assertThat(Files.readAllBytes(dir.resolve("stdin.json"))).isEqualTo(request);
  }
}
