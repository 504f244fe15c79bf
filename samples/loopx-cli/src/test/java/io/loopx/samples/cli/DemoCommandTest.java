package io.loopx.samples.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.testkit.DocumentedKeys;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code loopx demo --validate}: loads manifests and shows their normalised JSON and revision. */
class DemoCommandTest {
  @TempDir Path tmp;

  @Test
  void demoOfFilesPrintsEachManifest() throws IOException {
    Cli cli = new Cli(tmp);
    Path a = Cli.writeProvider(tmp.resolve("a"), "demo-a", "1.0.0");
    Path b = Cli.writeProvider(tmp.resolve("b"), "demo-b", "2.0.0");

    ObjectNode r = cli.json(0, "demo", "--validate", a.toString(), b.toString());

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(Keys.VALIDATION);
    assertThat(r.get("schema_version").stringValue()).isEqualTo("loopx_demo_validation_v0");
    assertThat(r.get("manifests").size()).isEqualTo(2);
    JsonNode first = r.get("manifests").get(0);
    assertThat(DocumentedKeys.of(first)).containsExactlyElementsOf(Keys.VALIDATION_ENTRY);
    assertThat(first.get("source").stringValue()).isEqualTo(a.toString());
    assertThat(first.get("manifest").get("id").stringValue()).isEqualTo("demo-a");
    assertThat(first.get("manifest").get("runtime").get("timeout_seconds").intValue())
        .isEqualTo(10);
    assertThat(first.get("revision").stringValue()).matches("[0-9a-f]{16}");
    assertThat(r.get("manifests").get(1).get("manifest").get("version").stringValue())
        .isEqualTo("2.0.0");
    assertThat(Files.exists(cli.root)).isFalse();
  }

  @Test
  void theGoldenManifestHasTheGoldenRevision() throws IOException {
    Path golden = tmp.resolve("extension.toml");
    Files.writeString(
        golden,
        """
        schema_version = "loopx_extension_manifest_v0"
        id = "golden-example"
        version = "1.0.0"
        requires_loopx_api = ">=1,<2"
        [runtime]
        protocol = "golden_example_v0"
        entrypoint = "golden-provider"
        doctor_args = ["--doctor"]
        """);

    ObjectNode r = new Cli(tmp).json(0, "demo", "--validate", golden.toString());

    assertThat(r.get("manifests").get(0).get("revision").stringValue())
        .isEqualTo("1566783bb5842048");
  }

  @Test
  void demoWithoutArgumentsLoadsTheBundledManifests() {
    ObjectNode r = new Cli(tmp).json(0, "demo", "--validate");

    assertThat(r.get("manifests").values())
        .extracting(m -> m.get("source").stringValue())
        .containsExactly("bundled:" + Cli.FIXTURE_BUNDLED_ID);
  }

  @Test
  void demoWithNothingBundledListsNothing() {
    Cli cli = new Cli(tmp);
    CliEnvironment empty =
        new CliEnvironment(tmp.resolve("home"), false, Map.of(), Optional.empty());
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    int code =
        LoopxCli.execute(
            new String[] {"demo", "--validate"}, out, new ByteArrayOutputStream(), () -> empty);

    assertThat(code).isZero();
    assertThat(out.toString(UTF_8)).startsWith("No manifests");
    assertThat(cli.root).doesNotExist();
  }

  @Test
  void demoText() throws IOException {
    Path a = Cli.writeProvider(tmp.resolve("a"), "demo-a", "1.0.0");

    Cli.Result r = new Cli(tmp).run("demo", "--validate", a.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout().lines()).hasSize(3).first().isEqualTo(a.toString());
    assertThat(r.stdout()).contains("  revision: ", "  manifest: {\"schema_version\"");
  }

  @Test
  void anInvalidManifestFailsTheDemo() throws IOException {
    Path bad = tmp.resolve("bad.toml");
    Files.writeString(bad, "id = 3\n");

    ObjectNode e = new Cli(tmp).error("manifest_invalid", "demo", "--validate", bad.toString());

    assertThat(e.get("error").stringValue()).contains("bad.toml");
  }

  @Test
  void manifestsNeedValidateAndKeepNeedsTheWalk() {
    Cli cli = new Cli(tmp);

    assertThat(cli.error("usage", "demo", "a.toml").get("error").stringValue())
        .isEqualTo("MANIFEST arguments need --validate");
    assertThat(cli.error("usage", "demo", "--validate", "--keep").get("error").stringValue())
        .isEqualTo("--keep applies to the walk, not to --validate");
    assertThat(cli.root).doesNotExist();
  }

  @Test
  void bundledResourcesAreReadFromTheClassPathAndMissingOnesSkipped() {
    Map<String, byte[]> found =
        CliEnvironment.bundledResources(List.of("absent-ext", Cli.FIXTURE_BUNDLED_ID));

    assertThat(found).containsOnlyKeys(Cli.FIXTURE_BUNDLED_ID);
    assertThat(new String(found.get(Cli.FIXTURE_BUNDLED_ID), UTF_8))
        .contains("id = \"cli-test-fixture\"");
    assertThat(CliEnvironment.BUNDLED_IDS)
        .allSatisfy(id -> assertThat(ExtensionId.of(id).value()).isEqualTo(id));
  }
}
