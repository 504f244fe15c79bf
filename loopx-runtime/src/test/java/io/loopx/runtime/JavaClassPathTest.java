package io.loopx.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.conformance.CheckStatus;
import io.loopx.runtime.conformance.ConformanceCheck;
import io.loopx.runtime.conformance.ConformanceReceipt;
import io.loopx.runtime.conformance.ProviderConformance;
import io.loopx.runtime.lifecycle.DoctorStatus;
import io.loopx.runtime.lifecycle.LifecycleReceipt;
import io.loopx.runtime.manifest.LoadedManifest;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A third-party {@code java_main} provider end to end, with real jars compiled here and a real
 * child JVM: its manifest's {@code java_class_path} names its two jars, which are not on the host's
 * class path; exactly these form the child's class path (the host's classes are not visible to it);
 * the jar that does not hold the main class is part of the proven identity too.
 */
class JavaClassPathTest {
  private static final ExtensionId ID = ExtensionId.of("third-party");
  private static final String DEPENDENCY =
      "package thirdparty.dep;\n"
          + "public final class Greeting {\n"
          + "  public static String of(int n) { return \"hello \" + n; }\n"
          + "}\n";
  private static final String MAIN =
      "package thirdparty.provider;\n"
          + "public final class Main {\n"
          + "  public static void main(String[] args) throws Exception {\n"
          + "    if (args.length > 0 && args[0].equals(\"--doctor\")) { return; }\n"
          + "    int n = System.in.readAllBytes().length;\n"
          + "    boolean host;\n"
          + "    try { Class.forName(\"io.loopx.api.ExtensionId\"); host = true; }\n"
          + "    catch (ClassNotFoundException e) { host = false; }\n"
          + "    String cp = System.getProperty(\"java.class.path\")\n"
          + "        .replace(\"\\\\\", \"\\\\\\\\\").replace(\"\\\"\", \"\\\\\\\"\");\n"
          + "    System.out.print(\"{\\\"ok\\\":true,\\\"greeting\\\":\\\"\"\n"
          + "        + thirdparty.dep.Greeting.of(n) + \"\\\",\\\"host_classes_visible\\\":\"\n"
          + "        + host + \",\\\"class_path\\\":\\\"\" + cp + \"\\\"}\");\n"
          + "  }\n"
          + "}\n";

  @TempDir Path tmp;
  Path pkg;
  Loopx loopx;

  @BeforeEach
  void setUp() throws IOException {
    pkg = tmp.resolve("third-party");
    Path lib = Files.createDirectories(pkg.resolve("lib"));
    Path dependencyClasses =
        compile(tmp.resolve("dep"), "thirdparty/dep/Greeting.java", DEPENDENCY, List.of());
    Path mainClasses =
        compile(
            tmp.resolve("main"),
            "thirdparty/provider/Main.java",
            MAIN,
            List.of("-cp", dependencyClasses.toString()));
    jar(mainClasses, lib.resolve("provider.jar"));
    jar(dependencyClasses, lib.resolve("dep.jar"));
    Files.writeString(
        pkg.resolve("extension.toml"),
        "schema_version = \"loopx_extension_manifest_v0\"\n"
            + "id = \"third-party\"\n"
            + "version = \"1.0.0\"\n"
            + "requires_loopx_api = \">=1,<2\"\n"
            + "[runtime]\n"
            + "protocol = \"third_party_v0\"\n"
            + "java_main = \"thirdparty.provider.Main\"\n"
            + "java_class_path = [\"lib/provider.jar\", \"./lib/dep.jar\"]\n"
            + "doctor_args = [\"--doctor\"]\n"
            + "timeout_seconds = 60\n");
    loopx =
        Loopx.builder()
            .isolation(IsolationPolicy.OFF)
            .runtimeRoot(tmp.resolve("runtime-root"))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .build();
  }

  private static Path compile(Path out, String file, String source, List<String> options)
      throws IOException {
    Path src = out.resolve("src").resolve(file);
    Files.createDirectories(src.getParent());
    Files.writeString(src, source);
    Path classes = Files.createDirectories(out.resolve("classes"));
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(errors, true, StandardCharsets.UTF_8);
    String[] args =
        Stream.of(
                options.stream(),
                Stream.of("--release", "17", "-d", classes.toString(), src.toString()))
            .flatMap(s -> s)
            .toArray(String[]::new);
    int status = ToolProvider.findFirst("javac").orElseThrow().run(err, err, args);
    assertThat(status).as("javac: %s", errors.toString(StandardCharsets.UTF_8)).isZero();
    return classes;
  }

  private static void jar(Path classes, Path jar) throws IOException {
    try (OutputStream out = Files.newOutputStream(jar);
        ZipOutputStream zip = new ZipOutputStream(out);
        Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        zip.putNextEntry(new ZipEntry(classes.relativize(file).toString()));
        zip.write(Files.readAllBytes(file));
        zip.closeEntry();
      }
    }
  }

  @Test
  void theChildRunsOnExactlyTheDeclaredJars() throws IOException {
    LifecycleReceipt installed =
        loopx.install(LoadedManifest.load(pkg.resolve("extension.toml")), Mode.EXECUTE);
    assertThat(installed.doctor().orElseThrow().status()).isEqualTo(DoctorStatus.READY);
    assertThat(loopx.state().get(ID).orElseThrow().active().entrypointPath())
        .contains(pkg.toAbsolutePath().toString());

    RunReceipt run =
        loopx.run(RunRequest.of(ID, "{\"n\":1}".getBytes(StandardCharsets.UTF_8)), Mode.EXECUTE);

    assertThat(run.ok()).as("%s", run.toJson()).isTrue();
    JsonNode result = run.outcome().providerResult().orElseThrow();
    assertThat(result.get("greeting").stringValue()).isEqualTo("hello 7");
    assertThat(result.get("host_classes_visible").booleanValue()).isFalse();
    assertThat(result.get("class_path").stringValue())
        .isEqualTo(
            pkg.resolve("lib/provider.jar").toAbsolutePath()
                + java.io.File.pathSeparator
                + pkg.resolve("lib/dep.jar").toAbsolutePath());
  }

  @Test
  void theProviderPassesVerifyWithoutTouchingTheRealState() {
    ConformanceReceipt receipt =
        ProviderConformance.builder(
                LoadedManifest.load(pkg.resolve("extension.toml")),
                StrictJson.parseObject("{\"n\":1}".getBytes(StandardCharsets.UTF_8)))
            .hostEnvironment(Map.of("PATH", "/usr/bin:/bin"))
            .build()
            .verify();

    assertThat(receipt.ok()).as("%s", receipt.toJson()).isTrue();
    assertThat(receipt.checks())
        .filteredOn(c -> c.status() == CheckStatus.PASSED)
        .extracting(ConformanceCheck::id)
        .containsExactly(
            "doctor_exits_zero",
            "doctor_writes_nothing",
            "request_one_json_object",
            "output_utf8",
            "answer_within_timeout",
            "request_at_size_cap");
    assertThat(loopx.state().get(ID)).isEmpty();
  }

  @Test
  void aJarNamingMoreJarsInClassPathIsRefusedAndNothingIsInstalled() throws IOException {
    Path dependency = pkg.resolve("lib/dep.jar");
    byte[] classes = Files.readAllBytes(dependency);
    try (OutputStream out = Files.newOutputStream(dependency);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("META-INF/MANIFEST.MF"));
      zip.write(
          "Manifest-Version: 1.0\r\nClass-Path: unproven.jar\r\n\r\n"
              .getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("padding.bin"));
      zip.write(classes);
      zip.closeEntry();
    }

    LoopxException refused =
        catchThrowableOfType(
            LoopxException.class,
            () -> loopx.install(LoadedManifest.load(pkg.resolve("extension.toml")), Mode.EXECUTE));

    assertThat(refused.kind()).isEqualTo(ErrorKind.ENTRYPOINT_UNSUPPORTED);
    assertThat(refused.getMessage()).contains("its manifest names more jars in `Class-Path`");
    assertThat(loopx.state().get(ID)).isEmpty();
  }

  @Test
  void replacingTheJarThatDoesNotHoldTheMainClassMakesTheProofStale() throws IOException {
    loopx.install(LoadedManifest.load(pkg.resolve("extension.toml")), Mode.EXECUTE);
    Path dependency = pkg.resolve("lib/dep.jar");
    byte[] original = Files.readAllBytes(dependency);
    try (OutputStream out = Files.newOutputStream(dependency);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("thirdparty/dep/Other.class"));
      zip.write(original, 0, 64);
      zip.closeEntry();
    }

    LoopxException refused =
        catchThrowableOfType(
            LoopxException.class,
            () ->
                loopx.run(RunRequest.of(ID, "{}".getBytes(StandardCharsets.UTF_8)), Mode.EXECUTE));

    assertThat(refused.kind()).isEqualTo(ErrorKind.DOCTOR_STALE);
    assertThat(loopx.doctor(ID, Mode.PREVIEW).status()).isNotEqualTo(DoctorStatus.READY);
  }
}
