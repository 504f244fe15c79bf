package io.loopx.testkit.contract;

import static io.loopx.testkit.ReceiptAssert.assertThatReceipt;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunRequest;
import io.loopx.runtime.run.RunStatus;
import io.loopx.scaffold.Scaffold;
import io.loopx.scaffold.ScaffoldReceipt;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * <b>SLOW (about 20-60 s; it runs Maven once):</b> the scaffold's promise, end to end. {@link
 * Scaffold#init} generates a starter package into a temporary directory; it is built as its README
 * says, {@code mvn -o -q package} (offline: the package needs only Maven Central artifacts, which
 * the main build has put into the local repository); then the real runtime drives it: install
 * (doctor {@code ready}), doctor again, {@code Loopx.run} of {@code examples/request.json} ({@code
 * succeeded}), a request missing a key ({@code provider_failed}); and the inherited contract kit
 * checks it like any provider.
 *
 * <p>Skipped, with a message saying so, only when {@code mvn} is not on PATH. Should the offline
 * build fail only because the local repository lacks an artifact (a first build on a fresh machine,
 * where this module's tests run before the modules that resolve the validator and the shade
 * plugin), the build is repeated once online, from Maven Central.
 */
@Tag("slow")
class StarterPackageEndToEndTest extends ProviderContractTest {
  static final String ID = "loopx-starter-check";
  static final long BUILD_TIMEOUT_MINUTES = 10;

  @TempDir static Path workspace;
  static Path pkg;

  @BeforeAll
  static void generateAndBuild() throws IOException, InterruptedException {
    Optional<Path> mvn = onPath("mvn");
    Assumptions.assumeTrue(
        mvn.isPresent(),
        "mvn is not on PATH: the generated starter package cannot be built, so its end-to-end"
            + " test is skipped");
    ScaffoldReceipt receipt =
        Scaffold.init(ID, Optional.empty(), Optional.empty(), workspace, Mode.EXECUTE);
    pkg = receipt.destination();
    assertThat(pkg).isEqualTo(workspace.resolve("packages").resolve(ID));

    Path log = workspace.resolve("mvn-offline.log");
    int code = maven(mvn.get(), true, log);
    String output = Files.readString(log, UTF_8);
    if (code != 0 && output.contains("in offline mode")) {
      log = workspace.resolve("mvn-online.log");
      code = maven(mvn.get(), false, log);
      output = Files.readString(log, UTF_8);
    }
    assertThat(code).as("mvn package of the starter; its output:%n%s", output).isZero();
    assertThat(pkg.resolve("target").resolve(ID + ".jar")).isRegularFile();
  }

  /** Runs {@code mvn [-o] -q -B package} in the package; returns its exit code. */
  private static int maven(Path mvn, boolean offline, Path log)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(mvn.toString()));
    if (offline) {
      command.add("-o");
    }
    command.addAll(List.of("-q", "-B", "package"));
    String localRepository = System.getProperty("maven.repo.local");
    if (localRepository != null && !localRepository.isBlank()) {
      command.add("-Dmaven.repo.local=" + localRepository);
    }
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(pkg.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process process = builder.start();
    process.getOutputStream().close();
    if (!process.waitFor(BUILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError(
          "mvn package did not finish within " + BUILD_TIMEOUT_MINUTES + " min");
    }
    return process.exitValue();
  }

  private static Optional<Path> onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String entry : path.split(File.pathSeparator, -1)) {
      if (entry.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(entry).resolve(program);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  // ------------------------------------------------------------------ the contract kit's hooks

  @Override
  protected Path manifest() {
    return pkg.resolve("extension.toml");
  }

  @Override
  protected ObjectNode validRequest() {
    try {
      return StrictJson.parseObject(Files.readAllBytes(pkg.resolve("examples/request.json")));
    } catch (IOException e) {
      throw new AssertionError("cannot read the example request", e);
    }
  }

  /** The launcher runs {@code $JAVA_HOME/bin/java}: the JDK running this test. */
  @Override
  protected Map<String, String> hostEnvironment() {
    Map<String, String> env = new LinkedHashMap<>(System.getenv());
    env.put("JAVA_HOME", System.getProperty("java.home"));
    return env;
  }

  // ------------------------------------------------------------------ the managed lifecycle

  @Test
  void installDoctorRunAndRefuseWithTheRealRuntime(@TempDir Path root) throws IOException {
    // A host that sets no isolation policy runs this standalone starter isolated, as an
    // unprivileged uid on a root host: the package must be reachable by it.
    Files.setPosixFilePermissions(workspace, PosixFilePermissions.fromString("rwxr-xr-x"));
    Loopx loopx = Loopx.builder().runtimeRoot(root).hostEnvironment(hostEnvironment()).build();
    ExtensionId id = ExtensionId.of(ID);

    LifecycleReceipt install = loopx.install(LoadedManifest.load(manifest()), Mode.EXECUTE);
    assertThatReceipt(install).doctor().hasStatus(DoctorStatus.READY).isVerified();
    assertThatReceipt(loopx.doctor(id, Mode.EXECUTE)).doctor().hasStatus(DoctorStatus.READY);

    byte[] example = Files.readAllBytes(pkg.resolve("examples/request.json"));
    assertThatReceipt(loopx.run(RunRequest.of(id, example), Mode.PREVIEW))
        .run()
        .isPreview()
        .hasStatus(RunStatus.READY)
        .hasNoExitCode();
    RunReceipt run = loopx.run(RunRequest.of(id, example), Mode.EXECUTE);
    assertThatReceipt(run).run().isExecuted().hasStatus(RunStatus.SUCCEEDED).hasExitCode(0);
    assertThat(run.inputSchemaVersion()).hasValue("loopx_starter_check_request_v0");
    ObjectNode answer = run.outcome().providerResult().orElseThrow();
    assertThat(answer.toString())
        .isEqualTo(
            "{\"ok\":true,\"schema_version\":\"loopx_starter_check_response_v0\","
                + "\"extension_id\":\"loopx-starter-check\","
                + "\"request_schema_version\":\"loopx_starter_check_request_v0\","
                + "\"result\":{\"greeting\":\"Hello, LoopX!\"}}");

    byte[] missingName = "{\"schema_version\":\"loopx_starter_check_request_v0\"}".getBytes(UTF_8);
    RunReceipt refused = loopx.run(RunRequest.of(id, missingName), Mode.EXECUTE);
    assertThatReceipt(refused).run().hasStatus(RunStatus.PROVIDER_FAILED).hasExitCode(1);
    ObjectNode refusal = refused.outcome().providerResult().orElseThrow();
    assertThat(refusal.get("ok").booleanValue()).isFalse();
    assertThat(refusal.get("schema_version").stringValue())
        .isEqualTo("loopx_starter_check_response_v0");
    assertThat(refusal.get("error").stringValue())
        .isEqualTo(
            "request does not match loopx_starter_check_request_v0:"
                + " $: required property 'name' not found");
  }
}
