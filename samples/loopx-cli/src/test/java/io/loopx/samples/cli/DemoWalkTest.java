package io.loopx.samples.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.IsolationPolicy;
import io.loopx.testkit.DocumentedKeys;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code loopx demo}: the lifecycle walk in process, with the real bundled {@code loopx-text-stats}
 * (its provider runs as child JVMs) and, in place of {@code semantic-preference-local}, a bundled
 * test manifest with that id whose provider is a shell script in {@code @TempDir}.
 */
class DemoWalkTest {
  /** The exit code each step of the walk is expected to have. */
  static final List<Integer> EXPECTED_EXIT_CODES = List.of(0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0);

  @TempDir Path tmp;
  Path temporary;
  Path home;

  @BeforeEach
  void setUp() throws IOException {
    temporary = Files.createDirectories(tmp.resolve("java-io-tmpdir"));
    home = tmp.resolve("home");
  }

  /** The fixture's recall provider: reads the request, answers one item, and has a doctor. */
  byte[] semanticFixture() throws IOException {
    Path script = tmp.resolve("semantic-fixture.sh");
    Files.writeString(
        script,
        """
        #!/bin/sh
        [ "$1" = "--doctor" ] && exit 0
        if [ "$1" = "--loopx-worker" ]; then
          echo "{\\"schema_version\\":\\"loopx_worker_handshake_v0\\",\\"protocol\\":\\"$LOOPX_WORKER_PROTOCOL\\",\\"pid\\":$$}"
          while IFS= read -r line; do
            id=$(printf '%s\\n' "$line" | sed 's/^{"id":"\\([^"]*\\)".*/\\1/')
            echo "{\\"id\\":\\"$id\\",\\"response\\":{\\"ok\\":true,\
        \\"schema_version\\":\\"semantic_preference_provider_response_v0\\",\
        \\"items\\":[{\\"preference_ref\\":\\"pref-007\\",\\"summary\\":\\"Green tea.\\"}]}}"
          done
          exit 0
        fi
        cat > /dev/null
        echo '{"ok":true,"schema_version":"semantic_preference_provider_response_v0",\
        "items":[{"preference_ref":"pref-007","summary":"Green tea in the morning."}]}'
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return """
        schema_version = "loopx_extension_manifest_v0"
        id = "semantic-preference-local"
        version = "0.0.1-test"
        requires_loopx_api = ">=1,<2"
        permissions = ["semantic_preference.read"]

        [runtime]
        protocol = "semantic_preference_provider_v0"
        entrypoint = "%s"
        doctor_args = ["--doctor"]
        required_permissions = ["semantic_preference.read"]
        timeout_seconds = 10

        [runtime.worker]

        [[implements]]
        capability_id = "semantic-preference"
        protocol = "semantic_preference_provider_v0"
        """
        .formatted(script)
        .getBytes(UTF_8);
  }

  Cli.Result demo(Map<String, byte[]> bundled, String... args) {
    CliEnvironment environment =
        new CliEnvironment(
                home, false, bundled, Optional.of(Map.of("PATH", "/usr/bin:/bin")), temporary)
            // In process, loopx-text-stats runs on this JVM's code path, partly in the local Maven
            // repository under root's 0700 home, which the sandbox uid cannot read; CliJarIT walks
            // the demo isolated from the shaded jar.
            .withIsolation(IsolationPolicy.OFF);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = LoopxCli.execute(args, InputStream.nullInputStream(), out, err, () -> environment);
    return new Cli.Result(code, out.toString(UTF_8), err.toString(UTF_8));
  }

  static Map<String, byte[]> textStatsOnly() {
    Map<String, byte[]> bundled =
        new LinkedHashMap<>(CliEnvironment.bundledResources(List.of(DemoWalk.TEXT_STATS)));
    assertThat(bundled).as("loopx-text-stats is on the test class path").hasSize(1);
    return bundled;
  }

  static List<Path> children(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }

  @Test
  void theWholeWalkInJson() throws IOException {
    Map<String, byte[]> bundled = textStatsOnly();
    bundled.put(DemoWalk.SEMANTIC_PREFERENCE_LOCAL, semanticFixture());

    Cli.Result r = demo(bundled, "demo", "--format", "json");

    assertThat(r.exitCode()).as(r.stdout()).isZero();
    assertThat(r.stderr()).isEmpty();
    ObjectNode json = r.json();
    assertThat(DocumentedKeys.of(json)).containsExactlyElementsOf(Keys.DEMO);
    assertThat(json.get("ok").booleanValue()).isTrue();
    assertThat(json.get("schema_version").stringValue()).isEqualTo("loopx_demo_v0");
    List<JsonNode> steps = List.copyOf(json.get("steps").values());
    assertThat(steps)
        .extracting(s -> s.get("exit_code").intValue())
        .containsExactlyElementsOf(EXPECTED_EXIT_CODES);
    assertThat(steps)
        .allSatisfy(
            s -> assertThat(DocumentedKeys.of(s)).containsExactlyElementsOf(Keys.DEMO_STEP));
    String root = steps.get(0).get("command").stringValue().replaceFirst(".* --runtime-root ", "");
    assertThat(Path.of(root).getParent()).isEqualTo(temporary);
    assertThat(steps.get(0).get("command").stringValue())
        .isEqualTo("loopx extension install --bundled loopx-text-stats --runtime-root " + root);

    JsonNode preview = steps.get(0).get("receipt");
    assertThat(preview.get("dry_run").booleanValue()).isTrue();
    assertThat(preview.get("doctor").get("status").stringValue()).isEqualTo("probe_required");
    assertThat(steps.get(1).get("receipt").get("doctor").get("status").stringValue())
        .isEqualTo("ready");
    assertThat(steps.get(2).get("receipt").get("extensions").get(0).get("id").stringValue())
        .isEqualTo("loopx-text-stats");
    assertThat(steps.get(3).get("receipt").get("status").stringValue()).isEqualTo("ready");
    JsonNode run = steps.get(4).get("receipt");
    assertThat(run.get("schema_version").stringValue()).isEqualTo("loopx_extension_run_receipt_v0");
    assertThat(run.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(run.get("input_schema_version").stringValue())
        .isEqualTo("loopx_text_stats_request_v0");
    assertThat(run.get("provider_result").get("result").get("lines").intValue()).isEqualTo(2);
    assertThat(steps.get(5).get("receipt").get("enabled").booleanValue()).isFalse();
    JsonNode refused = steps.get(6).get("receipt");
    Cli.assertErrorPacket((ObjectNode) refused, "extension_disabled");
    assertThat(steps.get(7).get("receipt").get("enabled").booleanValue()).isTrue();
    assertThat(steps.get(8).get("receipt").get("version").stringValue()).isEqualTo("1.1.0");
    assertThat(steps.get(9).get("receipt").get("version").stringValue()).isEqualTo("1.0.0");
    assertThat(steps.get(10).get("receipt").get("extension_id").stringValue())
        .isEqualTo("semantic-preference-local");
    JsonNode recall = steps.get(11).get("receipt");
    assertThat(recall.get("schema_version").stringValue())
        .isEqualTo("loopx_capability_dispatch_v0");
    assertThat(recall.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(recall.get("extension_id").stringValue()).isEqualTo("semantic-preference-local");
    assertThat(
            recall.get("provider_result").get("items").get(0).get("preference_ref").stringValue())
        .isEqualTo("pref-007");
    assertThat(steps.get(11).get("command").stringValue())
        .startsWith("loopx semantic-preference recall --input-json " + root)
        .endsWith(" --execute --runtime-root " + root);

    JsonNode warm = json.get("warm_workers");
    assertThat(DocumentedKeys.of(warm)).containsExactlyElementsOf(Keys.DEMO_WARM);
    assertThat(warm.get("recalls").intValue()).isEqualTo(WarmRecalls.RECALLS);
    assertThat(warm.get("one_shot_ms").size()).isEqualTo(WarmRecalls.RECALLS);
    assertThat(warm.get("worker_ms").size()).isEqualTo(WarmRecalls.RECALLS);
    assertThat(warm.get("worker_answered").intValue())
        .as("every recall of the warm facade was answered by a worker")
        .isEqualTo(WarmRecalls.RECALLS);
    assertThat(warm.get("failures").size()).isZero();
    assertThat(warm.get("processes_left").intValue()).isZero();

    assertThat(children(temporary)).as("the runtime root is deleted").isEmpty();
    assertThat(home).doesNotExist();
  }

  @Test
  void theTextShowsBothTimingsAndNoWorkerIsLeft() throws IOException {
    Map<String, byte[]> bundled = textStatsOnly();
    bundled.put(DemoWalk.SEMANTIC_PREFERENCE_LOCAL, semanticFixture());
    List<Long> before = liveDescendants();

    Cli.Result r = demo(bundled, "demo");

    assertThat(r.exitCode()).as(r.stdout()).isZero();
    assertThat(r.stdout())
        .contains("Warm workers: the same recall one-shot and through a warm worker")
        .containsPattern("(?m)^  one-shot \\(a process per call\\): ([0-9.]+, ){4}[0-9.]+ ms$")
        .containsPattern(
            "(?m)^  warm worker \\(the first call starts it\\): ([0-9.]+, ){4}[0-9.]+ ms$")
        .containsPattern("(?m)^  median one-shot [0-9.]+ ms, median warm call [0-9.]+ ms")
        .contains("answered by a worker: 5 of 5; provider processes left after close(): 0")
        .contains("ok: every step exited as expected.");
    assertThat(liveDescendants()).as("processes of this JVM after the demo").isSubsetOf(before);
  }

  static List<Long> liveDescendants() {
    return ProcessHandle.current()
        .descendants()
        .filter(ProcessHandle::isAlive)
        .map(ProcessHandle::pid)
        .toList();
  }

  @Test
  void withoutTheSemanticManifestTheWalkStopsAndSaysWhy() throws IOException {
    Cli.Result r = demo(textStatsOnly(), "demo", "--keep");

    assertThat(r.exitCode()).as(r.stdout()).isEqualTo(1);
    assertThat(r.stderr()).isEmpty();
    assertThat(r.stdout())
        .startsWith("LoopX demo\nRuntime root: " + temporary)
        .contains(
            "[1] Preview the install of loopx-text-stats\n$ loopx extension install --bundled"
                + " loopx-text-stats --runtime-root ")
        .containsPattern("(?m)^\\[7] Run the disabled loopx-text-stats .*\n.*\nexit 2\n")
        .containsPattern("(?m)^  kind: +extension_disabled$")
        .containsPattern("(?m)^  provider_result\\.result\\.lines: +2$")
        .contains("[11] Install semantic-preference-local")
        .containsPattern("(?m)^exit 2 \\(expected 0\\)$")
        .containsPattern("(?m)^  error: +unknown bundled extension `semantic-preference-local`")
        .contains("Demo stopped: step 11 (Install semantic-preference-local")
        .contains(
            "The bundled manifest of `semantic-preference-local` (class-path resource"
                + " loopx/bundled/semantic-preference-local/extension.toml) is missing from this"
                + " build")
        .doesNotContain("[12]");
    List<Path> kept = children(temporary);
    assertThat(kept)
        .singleElement()
        .satisfies(p -> assertThat(p.getFileName().toString()).startsWith("loopx-demo-"));
    assertThat(kept.get(0).resolve("extensions").resolve("state.json")).isRegularFile();
    assertThat(r.stdout()).contains("Runtime root: " + kept.get(0) + " (kept)");
  }

  @Test
  void commandLinesAreQuotedForTheShell() {
    assertThat(DemoWalk.commandLine(List.of("extension", "run", "a b", "it's", "x=1,2")))
        .isEqualTo("loopx extension run 'a b' 'it'\\''s' x=1,2");
  }
}
