package io.loopx.runtime.run;

import static io.loopx.runtime.run.RunFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.RuntimeEnvironment;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.run.RunFixture.Spec;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * UTF-8 both ways whatever the host's default charset and locale (docs/contract/run.md): a child
 * JVM with an ISO-8859-1 default charset under the C locale runs a provider through {@link
 * io.loopx.runtime.Loopx#run} and gets emoji and CJK text through unchanged, byte for byte.
 */
class RunUtf8ChildJvmTest {
  @TempDir Path tmp;

  @Test
  void nonAsciiTextSurvivesARoundTripThroughALatin1Host()
      throws IOException, InterruptedException, URISyntaxException {
    RunFixture fixture = new RunFixture(tmp);
    String own = "漢字かな 한국어 🎉 𝄞 é";
    ExtensionId id =
        fixture.install(
            Spec.of(
                "demo-run",
                "cat > \"$DIR/stdin\"\n"
                    + "printf '{\"ok\":true,\"echo\":'\n"
                    + "cat \"$DIR/stdin\"\n"
                    + "printf ',\"own\":\"%s\"}' '"
                    + own
                    + "'"));
    byte[] request =
        utf8(
            "{ \"schema_version\": \"utf8_v1\",\n"
                + "  \"text\": \"héllo 世界 🎉 𝄞\", \"keys\": {\"ключ\": \"値\", \"\\u00e9\": 1} }\n");
    String compact =
        "{\"schema_version\":\"utf8_v1\",\"text\":\"héllo 世界 🎉 𝄞\",\"keys\":{\"ключ\":\"値\",\"é\":1}}";
    String revision = fixture.loopx.state().get(id).orElseThrow().activeRevision().value();

    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dfile.encoding=ISO-8859-1");
    command.add("-Dsun.stdout.encoding=ISO-8859-1");
    command.add("-Dsun.stderr.encoding=ISO-8859-1");
    command.add("-cp");
    command.add(childClassPath());
    command.add(RunUtf8Main.class.getName());
    command.add(fixture.stateFile.toString());
    command.add(id.value());
    Path stderr = tmp.resolve("child.stderr");
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
    builder.environment().clear();
    builder.environment().put("PATH", "/usr/bin:/bin");
    builder.environment().put("LANG", "C");
    builder.environment().put("LC_ALL", "C");
    Process child = builder.start();
    try (OutputStream in = child.getOutputStream()) {
      in.write(request);
    }
    byte[] out = child.getInputStream().readAllBytes();
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child JVM finished").isTrue();

    String childErr = Files.readString(stderr, StandardCharsets.ISO_8859_1);
    assertThat(child.exitValue()).as(childErr).isZero();
    assertThat(childErr).contains("default charset: ISO-8859-1");
    assertThat(Files.readAllBytes(fixture.dir("demo-run").resolve("stdin")))
        .isEqualTo(utf8(compact));
    assertThat(out)
        .isEqualTo(
            utf8(
                "{\"ok\":true,\"schema_version\":\"loopx_extension_run_receipt_v0\","
                    + "\"operation\":\"run\",\"extension_id\":\"demo-run\","
                    + "\"provider_version\":\"1.0.0\",\"revision\":\""
                    + revision
                    + "\",\"protocol\":\"demo_run_v0\",\"dry_run\":false,\"executed\":true,"
                    + "\"status\":\"succeeded\",\"failure_kind\":null,\"exit_code\":0,"
                    + "\"provider_result\":{\"ok\":true,\"echo\":"
                    + compact
                    + ",\"own\":\""
                    + own
                    + "\"},\"stderr_tail\":null,\"input_schema_version\":\"utf8_v1\","
                    + "\"containment\":\""
                    // The child JVM runs on this machine, so it chooses as this JVM does.
                    + OsProcessLauncher.create().containment().orElseThrow().wireName()
                    + "\",\"memory_limit_bytes\":"
                    + (OsProcessLauncher.create().limitsMemory()
                        ? Long.toString(OsProcessLauncher.DEFAULT_MEMORY_LIMIT)
                        : "null")
                    + "}"));
  }

  /** This module's test classes, then the code path of this JVM (module path, class path). */
  static String childClassPath() throws URISyntaxException {
    String resource = RunUtf8Main.class.getSimpleName() + ".class";
    Path classFile = Path.of(RunUtf8Main.class.getResource(resource).toURI());
    Path testClasses = classFile.getParent();
    for (int i = 0; i < RunUtf8Main.class.getPackageName().split("\\.").length; i++) {
      testClasses = testClasses.getParent();
    }
    List<String> entries = new ArrayList<>();
    entries.add(testClasses.toString());
    for (Path entry : RuntimeEnvironment.current().codePath()) {
      entries.add(entry.toString());
    }
    return String.join(File.pathSeparator, entries);
  }
}
