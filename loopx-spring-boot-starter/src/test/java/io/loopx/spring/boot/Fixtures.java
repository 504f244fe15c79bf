package io.loopx.spring.boot;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.ExtensionId;
import io.loopx.api.KindToken;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.runtime.manifest.LoadedManifest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Real providers for the tests: a shell-script provider whose doctor probe notes its environment
 * ({@code env.txt} beside {@code bin/}) and writes to stderr, and the standard-library Python
 * provider {@code worker.py} (one-shot, or a warm worker with {@code [runtime.worker]}); the host's
 * catalog of capabilities as a {@link BuiltinContribution}.
 */
final class Fixtures {
  static final Duration SAFETY = Duration.ofSeconds(30);
  static final CapabilityId RECALL = CapabilityId.of("demo-recall");
  static final CapabilityId SUM = CapabilityId.of("demo-sum");
  static final ProtocolId RECALL_PROTOCOL = ProtocolId.of("demo_recall_v0");
  static final ProtocolId SUM_PROTOCOL = ProtocolId.of("demo_sum_v0");
  static final Permission READ = Permission.of("demo.read");
  static final ExtensionId SH = ExtensionId.of("demo-sh");
  static final ExtensionId WARM = ExtensionId.of("warm-recall");

  private Fixtures() {}

  /** Writes the shell-script extension {@code demo-sh} under {@code tmp} and installs it. */
  static Path installSh(Loopx loopx, Path tmp) throws IOException {
    Path dir = tmp.resolve(SH.value());
    Path bin = dir.resolve("bin");
    Files.createDirectories(bin);
    Path script = bin.resolve("provider");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "if [ \"$1\" = \"--doctor\" ]; then\n"
            + "  env > \"$(dirname \"$0\")/../env.txt\"\n"
            + "  echo doctor-stderr >&2\n"
            + "  exit 0\n"
            + "fi\n"
            + "cat\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \"demo-sh\"\n"
            + "version = \"1.0.0\"\n"
            + "requires_loopx_api = \">=1,<2\"\n"
            + "[runtime]\n"
            + "protocol = \"demo_sh_v0\"\n"
            + "entrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\n"
            + "timeout_seconds = 10\n");
    loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);
    return dir;
  }

  /** Makes the doctor proof of {@code demo-sh} stale: its entrypoint's content changes. */
  static void replaceShEntrypoint(Path dir) throws IOException {
    Path script = dir.resolve("bin").resolve("provider");
    Files.writeString(script, Files.readString(script) + "# changed\n");
  }

  /** Writes the warm-worker extension {@code warm-recall} under {@code tmp} and installs it. */
  static Path installWorker(Loopx loopx, Path tmp) throws IOException {
    Path dir = tmp.resolve(WARM.value());
    Files.createDirectories(dir.resolve("bin"));
    Path script = dir.resolve("bin/provider");
    try (InputStream in =
        Objects.requireNonNull(Fixtures.class.getResourceAsStream("worker.py"), "worker.py")) {
      Files.write(script, in.readAllBytes());
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(
        dir.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\nid = \"warm-recall\"\n"
            + "version = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
            + "permissions = [\"demo.read\"]\n"
            + "[runtime]\nprotocol = \"demo_recall_v0\"\nentrypoint = \"bin/provider\"\n"
            + "doctor_args = [\"--doctor\"]\nrequired_permissions = [\"demo.read\"]\n"
            + "timeout_seconds = 30\n[runtime.worker]\n"
            + "\n[[implements]]\ncapability_id = \"demo-recall\"\nprotocol = \"demo_recall_v0\"\n");
    loopx.install(LoadedManifest.load(dir.resolve("extension.toml")), Mode.EXECUTE);
    return dir;
  }

  /** A dispatch of {@code demo-recall} noted by the worker as {@code seen/<tag>}. */
  static DispatchRequest recall(String tag) {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", RECALL.value());
    scope.put("operation", "recall");
    return DispatchRequest.builder(RECALL, RECALL_PROTOCOL, ActionToken.of("demo.recall"))
        .scope(scope)
        .permission(READ)
        .input(("{\"tag\":\"" + tag + "\"}").getBytes(UTF_8))
        .build();
  }

  /** A dispatch of the built-in {@code demo-sum}. */
  static DispatchRequest sum() {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", SUM.value());
    scope.put("operation", "sum");
    return DispatchRequest.builder(SUM, SUM_PROTOCOL, ActionToken.of("demo.sum"))
        .scope(scope)
        .permission(READ)
        .input("{\"a\":2,\"b\":3}".getBytes(UTF_8))
        .build();
  }

  /** The host's catalog: {@code demo-recall} (for extensions) and the built-in {@code demo-sum}. */
  static final class Catalog implements BuiltinContribution {
    @Override
    public String id() {
      return "demo-catalog";
    }

    @Override
    public void register(RegistrationContext context) {
      context.addCapability(capability(RECALL));
      context.addCapability(capability(SUM));
      context.addImplementation(
          SUM,
          SUM_PROTOCOL,
          request -> {
            ObjectNode result = JsonNodeFactory.instance.objectNode();
            result.put("sum", request.get("a").asInt() + request.get("b").asInt());
            return result;
          });
    }
  }

  private static ProvidedCapability capability(CapabilityId id) {
    return new ProvidedCapability(
        id,
        KindToken.of("demo_contract"),
        "Demo",
        "active",
        Visibility.PUBLIC,
        "A demo capability.",
        "Dispatch one.",
        Optional.of("a demo"),
        Optional.of("loopx demo"),
        Map.of());
  }

  /** Waits (a safety net, not a delay) for {@code condition}. */
  static boolean eventually(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + SAFETY.toNanos();
    while (System.nanoTime() < end) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(5);
    }
    return condition.getAsBoolean();
  }
}
