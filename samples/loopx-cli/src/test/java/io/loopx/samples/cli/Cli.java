package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.IsolationPolicy;
import io.loopx.testkit.DocumentedKeys;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs the CLI in process through {@link LoopxCli#execute(String[], java.io.OutputStream,
 * java.io.OutputStream, java.util.function.Supplier)} against a runtime root in a temporary
 * directory, and writes shell-script providers.
 */
final class Cli {
  static final JsonMapper JSON = JsonMapper.builder().build();

  /** The bundled manifest the tests ship (see {@code src/test/resources/loopx/bundled}). */
  static final String FIXTURE_BUNDLED_ID = "cli-test-fixture";

  final Path root;
  final CliEnvironment environment;

  Cli(Path tmp, boolean colour) {
    // The CLI sets no isolation policy, so its standalone extensions run isolated, as an
    // unprivileged uid on a root host: the packages under tmp must be reachable by it.
    openToTheSandbox(tmp);
    this.root = tmp.resolve("runtime-root");
    this.environment =
        new CliEnvironment(
            tmp.resolve("home"),
            colour,
            CliEnvironment.bundledResources(List.of(FIXTURE_BUNDLED_ID)),
            Optional.of(Map.of("PATH", "/usr/bin:/bin")));
  }

  Cli(Path tmp) {
    this(tmp, false);
  }

  private Cli(Path root, CliEnvironment environment) {
    this.root = root;
    this.environment = environment;
  }

  /**
   * A CLI whose facades set isolation {@code OFF}: for tests that observe a provider through the
   * files it writes in its package, which an isolated provider sees read-only.
   */
  static Cli unisolated(Path tmp) {
    Cli cli = new Cli(tmp);
    return new Cli(cli.root, cli.environment.withIsolation(IsolationPolicy.OFF));
  }

  /**
   * Makes {@code dir} (a JUnit temporary directory, mode 0700) world-traversable and readable, so
   * that an isolated provider, which runs as uid 65534 on a root host, reaches the packages in it.
   */
  static void openToTheSandbox(Path dir) {
    try {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The outcome of one run. */
  record Result(int exitCode, String stdout, String stderr) {
    /** Parses stdout as exactly one JSON object (trailing tokens fail). */
    ObjectNode json() {
      JsonNode node = JSON.readTree(stdout);
      assertThat(node.isObject()).as("stdout is one JSON object: %s", stdout).isTrue();
      assertThat(stdout.strip().lines().count()).as("one line").isEqualTo(1);
      return (ObjectNode) node;
    }
  }

  /** Runs {@code loopx ARGS} exactly as given, with an empty stdin. */
  Result raw(String... args) {
    return rawWithStdin(new byte[0], args);
  }

  /** Runs {@code loopx ARGS} exactly as given, with {@code stdin}. */
  Result rawWithStdin(byte[] stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LoopxCli.execute(args, new ByteArrayInputStream(stdin), out, err, () -> environment);
    return new Result(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Runs {@code loopx ARGS --runtime-root ROOT --format json} with {@code stdin}. */
  ObjectNode jsonWithStdin(int exitCode, byte[] stdin, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--runtime-root", root.toString(), "--format", "json"));
    Result r = rawWithStdin(stdin, all.toArray(new String[0]));
    assertThat(r.exitCode())
        .as("exit code of %s: %s %s", all, r.stdout(), r.stderr())
        .isEqualTo(exitCode);
    assertThat(r.stderr()).isEmpty();
    return r.json();
  }

  /** Runs {@code loopx ARGS --runtime-root ROOT}. */
  Result run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--runtime-root");
    all.add(root.toString());
    return raw(all.toArray(new String[0]));
  }

  /** Runs {@code loopx ARGS --runtime-root ROOT --format json}, expecting {@code exitCode}. */
  ObjectNode json(int exitCode, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--format");
    all.add("json");
    Result r = run(all.toArray(new String[0]));
    assertThat(r.exitCode())
        .as("exit code of %s: %s %s", all, r.stdout(), r.stderr())
        .isEqualTo(exitCode);
    assertThat(r.stderr()).isEmpty();
    return r.json();
  }

  /** Runs a command with {@code --format json} that must fail, and returns its error packet. */
  ObjectNode error(String kind, String... args) {
    ObjectNode packet = json(2, args);
    assertErrorPacket(packet, kind);
    return packet;
  }

  Path stateFile() {
    return root.resolve("extensions").resolve("state.json");
  }

  static void assertErrorPacket(ObjectNode packet, String kind) {
    assertThat(DocumentedKeys.of(packet))
        .containsExactlyElementsOf(
            kind.equals("doctor_not_ready")
                ? Keys.DOCTOR_NOT_READY_ERROR
                : packet.has("problems") ? Keys.MANIFEST_PROBLEMS_ERROR : Keys.ERROR);
    assertThat(packet.get("ok").booleanValue()).isFalse();
    assertThat(packet.get("schema_version").stringValue()).isEqualTo("loopx_extension_error_v0");
    assertThat(packet.get("status").stringValue()).isEqualTo("invalid_request");
    assertThat(packet.get("kind").stringValue()).isEqualTo(kind);
    assertThat(packet.get("error").stringValue()).isNotBlank();
  }

  /**
   * Writes an extension package {@code dir} with id {@code id}: {@code extension.toml} and a shell
   * provider {@code bin/provider} whose doctor fails (exit 3, {@code missing dependency libfoo} on
   * stderr) while a file {@code bin/fail} exists.
   */
  static Path writeProvider(Path dir, String id, String version) throws IOException {
    return writePackage(
        dir,
        id,
        version,
        """
        #!/bin/sh
        if [ "$1" = "--doctor" ]; then
          [ -f "$(dirname "$0")/fail" ] && { echo 'missing dependency libfoo' >&2; exit 3; }
          exit 0
        fi
        cat
        """);
  }

  /**
   * Writes a standalone extension package {@code dir}: {@code extension.toml} (id {@code id},
   * {@code version}, protocol {@code demo_ext_v0}, doctor args {@code --doctor}, a 10 s timeout)
   * and the executable {@code bin/provider} with the text {@code script}; returns the manifest.
   */
  static Path writePackage(Path dir, String id, String version, String script) throws IOException {
    Path bin = dir.resolve("bin");
    Files.createDirectories(bin);
    Path provider = bin.resolve("provider");
    Files.writeString(provider, script);
    Files.setPosixFilePermissions(provider, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path manifest = dir.resolve("extension.toml");
    Files.writeString(
        manifest,
        """
        schema_version = "loopx_extension_manifest_v0"
        id = "%s"
        version = "%s"
        requires_loopx_api = ">=1,<2"
        [runtime]
        protocol = "demo_ext_v0"
        entrypoint = "bin/provider"
        doctor_args = ["--doctor"]
        timeout_seconds = 10
        """
            .formatted(id, version));
    return manifest;
  }

  /** Makes the doctor of the provider in {@code dir} fail ({@code true}) or pass. */
  static void failDoctor(Path dir, boolean fail) throws IOException {
    Path marker = dir.resolve("bin").resolve("fail");
    if (fail) {
      Files.writeString(marker, "");
    } else {
      Files.deleteIfExists(marker);
    }
  }
}
