package io.loopx.testkit.contract;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.loopx.api.ActionToken;
import io.loopx.api.CapabilityId;
import io.loopx.api.KindToken;
import io.loopx.api.Permission;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.manifest.Visibility;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import io.loopx.runtime.RuntimeEnvironment;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Provider packages for the contract kit's own tests: shell scripts and a Java provider. */
final class Fixtures {
  static final String CAPABILITY = "demo-recall";
  static final String PROTOCOL = "demo_recall_v0";
  static final ActionToken ACTION = ActionToken.of("demo.recall");
  static final Permission PERMISSION = Permission.of("demo.read");
  static final String VALID = "{\"schema_version\":\"demo_request_v0\",\"q\":\"x\"}";

  private Fixtures() {}

  static ObjectNode validRequest() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("schema_version", "demo_request_v0");
    o.put("q", "x");
    return o;
  }

  static ObjectNode scope() {
    ObjectNode scope = JsonNodeFactory.instance.objectNode();
    scope.put("capability_id", CAPABILITY);
    scope.put("operation", "recall");
    return scope;
  }

  static EnvelopeBinding binding() {
    return EnvelopeBinding.of(ACTION, scope(), PERMISSION);
  }

  /**
   * The host's catalog: the capability contract {@code demo-recall}, no built-in implementation.
   */
  static BuiltinContribution contract() {
    return new BuiltinContribution() {
      @Override
      public String id() {
        return "demo-contract";
      }

      @Override
      public void register(RegistrationContext context) {
        context.addCapability(
            new ProvidedCapability(
                CapabilityId.of(CAPABILITY),
                KindToken.of("recall_contract"),
                "Demo recall",
                "active",
                Visibility.PUBLIC,
                "Recall demo things.",
                "Dispatch one real recall.",
                Optional.of("a demo"),
                Optional.of("loopx demo recall"),
                Map.of()));
      }
    };
  }

  /**
   * Writes a standalone package {@code dir} ({@code extension.toml} and {@code bin/provider} with
   * {@code body} after the shebang) and returns its manifest.
   */
  static Path standalone(Path dir, String id, String body) {
    return write(dir, id, body, "");
  }

  /**
   * Writes an effectful package implementing {@code demo-recall} with permission {@code demo.read}.
   */
  static Path effectful(Path dir, String id, String body) {
    return effectful(dir, id, body, "");
  }

  /**
   * Writes an effectful package whose manifest also holds {@code workerTable} (a {@code
   * [runtime.worker]} table, or empty).
   */
  static Path effectful(Path dir, String id, String body, String workerTable) {
    return write(
        dir,
        id,
        body,
        workerTable
            + "[[implements]]\ncapability_id = \""
            + CAPABILITY
            + "\"\nprotocol = \""
            + PROTOCOL
            + "\"\n");
  }

  private static Path write(Path dir, String id, String body, String tables) {
    boolean effectful = tables.contains("[[implements]]");
    try {
      Path bin = Files.createDirectories(dir.resolve("bin"));
      Path script = bin.resolve("provider");
      Files.writeString(script, "#!/bin/sh\n" + body, UTF_8);
      Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
      Path manifest = dir.resolve("extension.toml");
      Files.writeString(
          manifest,
          "schema_version = \"loopx_extension_manifest_v0\"\n"
              + "id = \""
              + id
              + "\"\nversion = \"1.0.0\"\nrequires_loopx_api = \">=1,<2\"\n"
              + "permissions = "
              + (effectful ? "[\"demo.read\"]" : "[]")
              + "\n[runtime]\nprotocol = \""
              + (effectful ? PROTOCOL : "demo_standalone_v0")
              + "\"\nentrypoint = \"bin/provider\"\ndoctor_args = [\"--doctor\"]\n"
              + "required_permissions = "
              + (effectful ? "[\"demo.read\"]" : "[]")
              + "\ntimeout_seconds = 20\n"
              + tables,
          UTF_8);
      return manifest;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A shell body that starts {@code mainClass} (from this module's test classes) in a child JVM
   * with this JVM's code path, with JVM options for a fast start.
   */
  static String javaMain(Class<?> mainClass) {
    List<Path> classPath = new ArrayList<>();
    classPath.add(testClasses(mainClass));
    classPath.addAll(RuntimeEnvironment.current().codePath());
    String cp =
        classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return "exec '"
        + java
        + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp '"
        + cp
        + "' "
        + mainClass.getName()
        + " \"$@\"\n";
  }

  /** The directory of this module's compiled test classes. */
  private static Path testClasses(Class<?> mainClass) {
    String resource = mainClass.getName().replace('.', '/') + ".class";
    try {
      Path location =
          Path.of(mainClass.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (Files.isRegularFile(location.resolve(resource))) {
        return location;
      }
    } catch (URISyntaxException | RuntimeException e) {
      // fall back to Maven's layout below
    }
    Path maven = Path.of("target", "test-classes").toAbsolutePath();
    if (Files.isRegularFile(maven.resolve(resource))) {
      return maven;
    }
    throw new IllegalStateException("cannot find the test classes holding " + resource);
  }
}
