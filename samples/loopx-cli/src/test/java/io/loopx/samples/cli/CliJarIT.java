package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * End to end: the real {@code target/loopx.jar} in a child JVM, always against a temporary runtime
 * root (never {@code ~/.loopx}), with a shell-script provider.
 */
class CliJarIT {
  @TempDir Path tmp;
  JarProcess loopx;
  Path root;
  Path v1;
  String manifest1;
  String manifest2;

  @BeforeEach
  void setUp() throws IOException {
    // the C locale: output must still be UTF-8
    loopx = new JarProcess(tmp, Map.of("LC_ALL", "C", "LANG", "C"));
    root = tmp.resolve("runtime-root");
    v1 = tmp.resolve("v1");
    manifest1 = Cli.writeProvider(v1, "demo-ext", "1.0.0").toString();
    manifest2 = Cli.writeProvider(tmp.resolve("v2"), "demo-ext", "2.0.0-grün").toString();
  }

  ObjectNode json(int exitCode, String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--runtime-root", root.toString(), "--format", "json"));
    Cli.Result r = loopx.run(all);
    assertThat(r.exitCode()).as("loopx %s: %s %s", all, r.stdout(), r.stderr()).isEqualTo(exitCode);
    assertThat(r.stderr()).isEmpty();
    return r.json();
  }

  static String status(JsonNode receipt) {
    return receipt.get("doctor").get("status").stringValue();
  }

  @Test
  void uninstallEndToEndWithTheLibraryLogOff() throws Exception {
    // json() also checks that stderr stays empty: the library's INFO lines do not reach it.
    json(0, "extension", "install", "--manifest", manifest1, "--execute");
    json(2, "extension", "uninstall", "demo-ext", "--execute");
    json(0, "extension", "disable", "demo-ext", "--execute");
    ObjectNode removed = json(0, "extension", "uninstall", "demo-ext", "--execute");
    assertThat(removed.get("changed").booleanValue()).isTrue();
    assertThat(removed.get("removed_revisions")).hasSize(1);
    assertThat(json(0, "extension", "list").get("extensions")).isEmpty();
  }

  @Test
  void theLifecycleWalk() throws Exception {
    ObjectNode preview = json(0, "extension", "install", "--manifest", manifest1);
    assertThat(preview.get("dry_run").booleanValue()).isTrue();
    assertThat(status(preview)).isEqualTo("probe_required");
    assertThat(root).doesNotExist();

    ObjectNode installed = json(0, "extension", "install", "--manifest", manifest1, "--execute");
    String first = installed.get("revision").stringValue();
    assertThat(installed.get("changed").booleanValue()).isTrue();
    assertThat(status(installed)).isEqualTo("ready");
    assertThat(root.resolve("extensions/state.json")).isRegularFile();

    JsonNode row = json(0, "extension", "list").get("extensions").get(0);
    assertThat(row.get("id").stringValue()).isEqualTo("demo-ext");
    assertThat(row.get("doctor_verified").booleanValue()).isTrue();

    ObjectNode doctor = json(0, "extension", "doctor", "demo-ext", "--execute");
    assertThat(doctor.get("schema_version").stringValue()).isEqualTo("loopx_extension_doctor_v0");
    assertThat(doctor.get("status").stringValue()).isEqualTo("ready");

    ObjectNode disabled = json(0, "extension", "disable", "demo-ext", "--execute");
    assertThat(disabled.get("enabled").booleanValue()).isFalse();
    assertThat(json(0, "extension", "doctor", "demo-ext").get("status").stringValue())
        .isEqualTo("disabled");

    ObjectNode enabled = json(0, "extension", "enable", "demo-ext", "--execute");
    assertThat(enabled.get("enabled").booleanValue()).isTrue();
    assertThat(status(enabled)).isEqualTo("ready");

    ObjectNode upgraded = json(0, "extension", "upgrade", "--manifest", manifest2, "--execute");
    assertThat(upgraded.get("version").stringValue()).isEqualTo("2.0.0-grün");
    assertThat(upgraded.get("previous_revision").stringValue()).isEqualTo(first);
    assertThat(upgraded.get("rollback_available").booleanValue()).isTrue();

    ObjectNode rolledBack = json(0, "extension", "rollback", "demo-ext", "--execute");
    assertThat(rolledBack.get("revision").stringValue()).isEqualTo(first);
    assertThat(rolledBack.get("version").stringValue()).isEqualTo("1.0.0");
    assertThat(status(rolledBack)).isEqualTo("ready");

    ObjectNode list = json(0, "extension", "list");
    assertThat(list.get("extensions").get(0).get("active_revision").stringValue()).isEqualTo(first);
    assertThat(list.get("extensions").get(0).get("revision_count").intValue()).isEqualTo(2);

    ObjectNode batch = json(0, "extension", "doctor", "--all-enabled", "--execute");
    assertThat(batch.get("status").stringValue()).isEqualTo("ready");

    ObjectNode catalog = json(0, "capability", "list", "--include-internal");
    assertThat(catalog.get("schema_version").stringValue())
        .isEqualTo("loopx_capability_catalog_v0");
    assertThat(catalog.get("providers").values())
        .extracting(p -> p.get("id").stringValue())
        .containsExactly("loopx-core", "demo-ext");

    ObjectNode demo = json(0, "demo", "--validate", manifest1);
    assertThat(demo.get("manifests").get(0).get("revision").stringValue()).isEqualTo(first);
  }

  @Test
  void runReadsItsRequestFromStdin() throws Exception {
    json(0, "extension", "install", "--manifest", manifest1, "--execute");
    Path request = tmp.resolve("request.json");
    Files.writeString(request, "{\"schema_version\":\"echo_v0\",\"text\":\"grüß 🌍\"}");

    Cli.Result r =
        loopx.run(
            List.of(),
            request,
            List.of(
                "extension",
                "run",
                "demo-ext",
                "--input-json",
                "-",
                "--execute",
                "--runtime-root",
                root.toString(),
                "--format",
                "json"));

    assertThat(r.exitCode()).as(r.stdout()).isZero();
    assertThat(r.stderr()).isEmpty();
    ObjectNode receipt = r.json();
    assertThat(receipt.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(receipt.get("provider_result").get("text").stringValue()).isEqualTo("grüß 🌍");
  }

  /** Whether the jar bundles the semantic-preference-local manifest (its module is wired in). */
  static boolean semanticPreferenceBundled() throws IOException {
    try (JarFile jar = new JarFile(System.getProperty("loopx.cli.jar", "target/loopx.jar"))) {
      return jar.getEntry("loopx/bundled/semantic-preference-local/extension.toml") != null;
    }
  }

  @Test
  void theDemoWalksTheWholeLifecycle() throws Exception {
    Path temporary = Files.createDirectories(tmp.resolve("java-io-tmpdir"));
    Path home = tmp.resolve("home");

    Cli.Result r =
        loopx.run(
            List.of("-Djava.io.tmpdir=" + temporary, "-Duser.home=" + home),
            Path.of("/dev/null"),
            List.of("demo", "--format", "json"));

    assertThat(r.stderr()).isEmpty();
    assertNoStackTrace(r);
    ObjectNode demo = r.json();
    assertThat(demo.get("schema_version").stringValue()).isEqualTo("loopx_demo_v0");
    List<JsonNode> steps = new ArrayList<>(demo.get("steps").values());
    List<Integer> expected = List.of(0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0);
    // the loopx-text-stats part needs only this module's own dependencies
    assertThat(steps).hasSizeGreaterThanOrEqualTo(11);
    for (int i = 0; i < 10; i++) {
      assertThat(steps.get(i).get("exit_code").intValue())
          .as("step %d: %s", i + 1, steps.get(i))
          .isEqualTo(expected.get(i));
    }
    assertThat(
            steps
                .get(4)
                .get("receipt")
                .get("provider_result")
                .get("result")
                .get("words")
                .intValue())
        .isEqualTo(14);
    Cli.assertErrorPacket((ObjectNode) steps.get(6).get("receipt"), "extension_disabled");
    assertThat(steps.get(8).get("receipt").get("version").stringValue()).isEqualTo("1.1.0");
    assertThat(steps.get(9).get("receipt").get("version").stringValue()).isEqualTo("1.0.0");
    try (Stream<Path> left = Files.list(temporary)) {
      assertThat(left).as("the demo deletes its runtime root").isEmpty();
    }
    assertThat(home.resolve(".loopx")).doesNotExist();

    // the recall part: the jar bundles the semantic-preference sample module
    assertThat(semanticPreferenceBundled()).as("semantic-preference-local is bundled").isTrue();
    assertThat(r.exitCode()).as(r.stdout()).isZero();
    assertThat(demo.get("ok").booleanValue()).isTrue();
    assertThat(steps)
        .extracting(s -> s.get("exit_code").intValue())
        .containsExactlyElementsOf(expected);
    JsonNode recall = steps.get(11).get("receipt");
    assertThat(recall.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(recall.get("extension_id").stringValue()).isEqualTo("semantic-preference-local");
    assertThat(recall.get("provider_result").get("items").isArray()).isTrue();
    // the warm part: the bundled manifest declares [runtime.worker]; the embedded Loopx's worker
    // answers every warm recall, and close() leaves no provider process
    JsonNode warm = demo.get("warm_workers");
    assertThat(warm.get("failures").size()).as("%s", warm).isZero();
    assertThat(warm.get("worker_answered").intValue()).isEqualTo(warm.get("recalls").intValue());
    assertThat(warm.get("processes_left").intValue()).isZero();
  }

  @Test
  void textOutputIsReadableAndUncoloredOnAPipe() throws Exception {
    json(0, "extension", "install", "--manifest", manifest2, "--execute");

    Cli.Result r = loopx.run("extension", "doctor", "demo-ext", "--runtime-root", root.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout())
        .containsPattern("(?m)^version: +2\\.0\\.0-grün$")
        .containsPattern("(?m)^status: +probe_required$")
        .doesNotContain("\u001b[");
  }

  /** Commands that fail, each with its exit code and (JSON) error kind. */
  record Failure(int exitCode, String kind, List<String> args) {}

  @Test
  void failingCommandsNeverPrintAStackTrace() throws Exception {
    json(0, "extension", "install", "--manifest", manifest1, "--execute");
    Path brokenRoot = tmp.resolve("broken-root");
    Files.createDirectories(brokenRoot.resolve("extensions"));
    Files.writeString(brokenRoot.resolve("extensions/state.json"), "{\"schema_version\":1}");
    String r = root.toString();
    List<Failure> failures =
        List.of(
            new Failure(2, "usage", List.of("nonsense", "--runtime-root", r)),
            new Failure(2, "usage", List.of("extension", "install", "--runtime-root", r)),
            new Failure(2, "usage", List.of("extension", "doctor", "Bad_Id", "--runtime-root", r)),
            new Failure(2, "usage", List.of("extension", "list", "--no-such-option")),
            new Failure(
                2,
                "manifest_invalid",
                List.of("extension", "install", "--manifest", "missing.toml", "--runtime-root", r)),
            new Failure(
                2,
                "manifest_invalid",
                List.of("extension", "install", "--bundled", "no-such-ext", "--runtime-root", r)),
            new Failure(
                2, "not_installed", List.of("extension", "enable", "ghost", "--runtime-root", r)),
            new Failure(
                2,
                "no_rollback_revision",
                List.of("extension", "rollback", "demo-ext", "--runtime-root", r)),
            new Failure(
                2,
                "state_unreadable",
                List.of("capability", "list", "--runtime-root", brokenRoot.toString())),
            new Failure(
                2,
                "resolution_failed",
                List.of("capability", "show", "catalog-health", "--runtime-root", r)));

    for (Failure f : failures) {
      List<String> jsonArgs = new ArrayList<>(f.args());
      jsonArgs.addAll(List.of("--format", "json"));
      Cli.Result json = loopx.run(jsonArgs);
      assertThat(json.exitCode()).as("%s", jsonArgs).isEqualTo(f.exitCode());
      assertThat(json.stderr()).as("%s", jsonArgs).isEmpty();
      Cli.assertErrorPacket(json.json(), f.kind());
      assertNoStackTrace(json);

      Cli.Result text = loopx.run(f.args());
      assertThat(text.exitCode()).as("%s", f.args()).isEqualTo(f.exitCode());
      assertThat(text.stdout()).as("%s", f.args()).isEmpty();
      assertThat(text.stderr()).startsWith("loopx: error [" + f.kind() + "]: ");
      assertNoStackTrace(text);
    }

    // a blocked doctor batch: exit 1, a result rather than an error
    Cli.failDoctor(v1, true);
    Cli.Result blocked =
        loopx.run(
            "extension",
            "doctor",
            "--all-enabled",
            "--execute",
            "--runtime-root",
            r,
            "--format",
            "json");
    assertThat(blocked.exitCode()).isEqualTo(1);
    assertThat(blocked.json().get("status").stringValue()).isEqualTo("blocked");
    assertNoStackTrace(blocked);
  }

  static void assertNoStackTrace(Cli.Result r) {
    for (String stream : List.of(r.stdout(), r.stderr())) {
      assertThat(stream).doesNotContain("\tat ", "Exception in thread", ".java:");
    }
  }
}
