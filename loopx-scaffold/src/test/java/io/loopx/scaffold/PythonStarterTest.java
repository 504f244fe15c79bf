package io.loopx.scaffold;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code extension init ID --language python}: the generated package, its provider run by the real
 * {@code python3}, and the package installed and run by the real runtime.
 */
class PythonStarterTest {
  static final String ID = "py-greeter";
  static final Path KIT = Path.of("..", "kits", "python", "loopx_provider.py");

  @TempDir Path tmp;

  record Result(int code, String out) {}

  private static Result launch(Path launcher, byte[] stdin, String... args)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder();
    pb.command().add(launcher.toString());
    pb.command().addAll(List.of(args));
    pb.environment().clear();
    pb.environment().put("PATH", "/usr/bin:/bin");
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    try (var in = p.getOutputStream()) {
      in.write(stdin);
    }
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("provider finished").isTrue();
    return new Result(p.exitValue(), out);
  }

  private Path scaffold() {
    Path pkg = tmp.resolve("pkg");
    Scaffold.init(
        ID, Optional.of(pkg), Optional.empty(), StarterLanguage.PYTHON, tmp, Mode.EXECUTE);
    return pkg;
  }

  @Test
  void thePreviewListsThePythonPackageAndTheDoctorAsBuildStep() {
    ScaffoldReceipt receipt =
        Scaffold.init(
            ID, Optional.empty(), Optional.empty(), StarterLanguage.PYTHON, tmp, Mode.PREVIEW);
    assertThat(receipt.files())
        .extracting(ScaffoldFile::path)
        .containsExactly(
            "extension.toml",
            "bin/" + ID,
            "bin/loopx_provider.py",
            "schemas/request.schema.json",
            "schemas/response.schema.json",
            "examples/request.json",
            "README.md");
    assertThat(receipt.nextCommands().build())
        .isEqualTo(tmp.resolve("packages").resolve(ID).resolve("bin").resolve(ID) + " --doctor");
    assertThat(receipt.protocol().value()).isEqualTo("py_greeter_extension_v0");
    assertThat(receipt.language()).isEqualTo(StarterLanguage.PYTHON);
    assertThat(receipt.toJson().get("language").stringValue()).isEqualTo("python");
    assertThat(Files.exists(tmp.resolve("packages"))).isFalse();
    // The default stays Java.
    assertThat(Scaffold.init(ID, Optional.empty(), Optional.empty(), tmp, Mode.PREVIEW).files())
        .extracting(ScaffoldFile::path)
        .contains("pom.xml");
  }

  @Test
  void anUnknownLanguageIsAScaffoldError() {
    assertThat(StarterLanguage.parse("python")).isEqualTo(StarterLanguage.PYTHON);
    assertThat(StarterLanguage.parse("java")).isEqualTo(StarterLanguage.JAVA);
    assertThatThrownBy(() -> StarterLanguage.parse("Python"))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.SCAFFOLD_INVALID);
              assertThat(e.getMessage())
                  .isEqualTo("invalid extension starter language `Python`: must be java or python");
            });
  }

  @Test
  void theGeneratedProviderUsesTheKitAndAnswersTheProtocol() throws Exception {
    Path pkg = scaffold();
    Path launcher = pkg.resolve("bin").resolve(ID);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(launcher)))
        .isEqualTo("rwxr-xr-x");
    assertThat(Files.readAllBytes(pkg.resolve("bin/loopx_provider.py")))
        .isEqualTo(Files.readAllBytes(KIT));

    assertThat(launch(launcher, new byte[0], "--doctor")).isEqualTo(new Result(0, ""));
    Result ok = launch(launcher, Files.readAllBytes(pkg.resolve("examples/request.json")));
    assertThat(ok)
        .isEqualTo(
            new Result(
                0,
                "{\"ok\":true,\"schema_version\":\"py_greeter_response_v0\",\"extension_id\":"
                    + "\"py-greeter\",\"request_schema_version\":\"py_greeter_request_v0\","
                    + "\"result\":{\"greeting\":\"Hello, LoopX!\"}}\n"));
    Result unknown =
        launch(
            launcher,
            "{\"schema_version\":\"py_greeter_request_v0\",\"name\":\"x\",\"admin\":true}"
                .getBytes(UTF_8));
    assertThat(unknown.code()).isEqualTo(1);
    assertThat(unknown.out())
        .isEqualTo(
            "{\"ok\":false,\"schema_version\":\"py_greeter_response_v0\",\"error\":\"request does"
                + " not match py_greeter_request_v0: unknown keys `admin`\"}\n");
    Result duplicate = launch(launcher, "{\"name\":\"a\",\"name\":\"b\"}".getBytes(UTF_8));
    assertThat(duplicate.code()).isEqualTo(1);
    assertThat(duplicate.out()).contains("duplicate key");
    assertThat(Files.exists(pkg.resolve("bin/__pycache__"))).isFalse();
  }

  @Test
  void theRuntimeInstallsAndRunsThePythonStarter() throws Exception {
    // A host that sets no isolation policy runs a standalone extension isolated, as an
    // unprivileged uid on a root host: the package must be reachable by it.
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path pkg = scaffold();
    Loopx loopx =
        Loopx.builder()
            .runtimeRoot(tmp.resolve("root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .build();
    try {
      LifecycleReceipt installed =
          loopx.install(LoadedManifest.load(pkg.resolve("extension.toml")), Mode.EXECUTE);
      assertThat(installed.doctor().orElseThrow().ready())
          .as(installed.toJson().toString())
          .isTrue();
      RunReceipt run =
          loopx.run(
              RunRequest.of(
                  ExtensionId.of(ID), Files.readAllBytes(pkg.resolve("examples/request.json"))),
              Mode.EXECUTE);
      assertThat(run.ok()).as(run.toJson().toString()).isTrue();
      assertThat(run.toJson().get("isolation").stringValue()).isEqualTo("bwrap");
      assertThat(
              run.outcome()
                  .providerResult()
                  .orElseThrow()
                  .get("result")
                  .get("greeting")
                  .stringValue())
          .isEqualTo("Hello, LoopX!");
    } finally {
      loopx.close();
    }
  }
}
