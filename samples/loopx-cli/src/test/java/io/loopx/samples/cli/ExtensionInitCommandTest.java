package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.testkit.DocumentedKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code loopx extension init} in process: the receipt, preview and execute, and each failure. */
class ExtensionInitCommandTest {

  @TempDir Path tmp;
  Cli cli;
  Path dest;

  @BeforeEach
  void setUp() {
    cli = new Cli(tmp);
    dest = tmp.resolve("starters").resolve("loopx-example");
  }

  static List<String> statuses(ObjectNode receipt) {
    List<String> out = new ArrayList<>();
    for (JsonNode f : receipt.get("files").values()) {
      out.add(f.get("status").stringValue());
    }
    return out;
  }

  @Test
  void previewPrintsTheReceiptAndWritesNothing() {
    ObjectNode r =
        cli.json(0, "extension", "init", "loopx-example", "--destination", dest.toString());

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.SCAFFOLD);
    assertThat(r.get("schema_version").stringValue()).isEqualTo("loopx_extension_scaffold_v0");
    assertThat(r.get("operation").stringValue()).isEqualTo("init");
    assertThat(r.get("dry_run").booleanValue()).isTrue();
    assertThat(r.get("changed").booleanValue()).isFalse();
    assertThat(r.get("version").stringValue()).isEqualTo("0.1.0");
    assertThat(r.get("destination").stringValue()).isEqualTo(dest.toString());
    assertThat(r.get("protocol").stringValue()).isEqualTo("loopx_example_extension_v0");
    assertThat(r.get("starter_kind").stringValue()).isEqualTo("standalone");
    assertThat(r.get("managed_entrypoint").stringValue()).isEqualTo("loopx extension run");
    assertThat(statuses(r)).hasSize(8).containsOnly("would_create");
    assertThat(r.get("next_commands").get("run").stringValue())
        .isEqualTo(
            "java -jar samples/loopx-cli/target/loopx.jar extension run loopx-example"
                + " --input-json "
                + dest.resolve("examples/request.json")
                + " --execute");
    assertThat(Files.exists(dest.getParent())).isFalse();
    assertThat(Files.exists(cli.root)).isFalse();
  }

  @Test
  void executeWritesThePackageButInstallsNothing() {
    ObjectNode r =
        cli.json(
            0,
            "extension",
            "init",
            "loopx-example",
            "--destination",
            dest.toString(),
            "--version",
            "2.3.4",
            "--execute");

    assertThat(r.get("dry_run").booleanValue()).isFalse();
    assertThat(r.get("changed").booleanValue()).isTrue();
    assertThat(r.get("version").stringValue()).isEqualTo("2.3.4");
    assertThat(statuses(r)).hasSize(8).containsOnly("created");
    assertThat(dest.resolve("extension.toml")).isRegularFile();
    assertThat(dest.resolve("bin/loopx-example")).isExecutable();
    assertThat(Files.exists(cli.stateFile())).isFalse();

    ObjectNode list = cli.json(0, "extension", "list");
    assertThat(list.get("extensions").isEmpty()).isTrue();
  }

  @Test
  void textOutputIsKeyValueLinesWithAPreviewReminder() {
    Cli.Result r = cli.run("extension", "init", "loopx-example", "--destination", dest.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.stderr()).isEmpty();
    assertThat(r.stdout())
        .containsPattern("(?m)^starter_kind: +standalone$")
        .containsPattern("(?m)^files\\[1\\]\\.path: +bin/loopx-example$")
        .containsPattern("(?m)^files\\[1\\]\\.status: +would_create$")
        .containsPattern("(?m)^next_commands\\.build: +mvn -q -f .*/pom.xml package$")
        .contains("Preview only: nothing was changed. Add --execute to apply.");
  }

  @Test
  void aRelativeDestinationIsResolvedAgainstTheWorkingDirectory() {
    ObjectNode r = cli.json(0, "extension", "init", "loopx-example", "--destination", "a/b");

    assertThat(r.get("destination").stringValue())
        .isEqualTo(Path.of("a/b").toAbsolutePath().normalize().toString());
  }

  @Test
  void theDefaultDestinationIsPackagesUnderTheWorkingDirectory() {
    ObjectNode r = cli.json(0, "extension", "init", "loopx-example");

    assertThat(r.get("destination").stringValue())
        .isEqualTo(Path.of("packages", "loopx-example").toAbsolutePath().toString());
  }

  @Test
  void anExistingDestinationIsScaffoldInvalidAndUntouched() throws IOException {
    Files.createDirectories(dest);

    for (List<String> mode : List.of(List.<String>of(), List.of("--execute"))) {
      List<String> args =
          new ArrayList<>(
              List.of("extension", "init", "loopx-example", "--destination", dest.toString()));
      args.addAll(mode);
      ObjectNode e = cli.error("scaffold_invalid", args.toArray(new String[0]));
      assertThat(e.get("error").stringValue())
          .isEqualTo("extension starter destination already exists: `" + dest + "`");
    }
    try (var children = Files.list(dest)) {
      assertThat(children).isEmpty();
    }
  }

  @Test
  void anInvalidIdOrVersionIsScaffoldInvalid() {
    ObjectNode id =
        cli.error("scaffold_invalid", "extension", "init", "Loopx_Example", "--destination", "x");
    assertThat(id.get("error").stringValue()).contains("`Loopx_Example`");

    ObjectNode version =
        cli.error(
            "scaffold_invalid",
            "extension",
            "init",
            "loopx-example",
            "--version",
            "1.0",
            "--destination",
            dest.toString());
    assertThat(version.get("error").stringValue())
        .startsWith("invalid extension starter version `1.0`");
    assertThat(Files.exists(dest.getParent())).isFalse();
  }

  @Test
  void aMissingIdIsAUsageError() {
    cli.error("usage", "extension", "init");
  }

  @Test
  void helpListsTheOptionsAndTheVersionOptionIsTheStarters() {
    Cli.Result r = cli.raw("extension", "init", "--help");

    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout())
        .startsWith("Usage: loopx extension init")
        .contains(
            "--destination=DIR",
            "--version=X.Y.Z",
            "--language=LANG",
            "--execute",
            "--format=FORMAT");
  }

  @Test
  void languagePythonWritesAPythonStarterWithTheKit() {
    ObjectNode r =
        cli.json(
            0,
            "extension",
            "init",
            "loopx-example",
            "--destination",
            dest.toString(),
            "--language",
            "python",
            "--execute");

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.SCAFFOLD);
    assertThat(statuses(r)).hasSize(7).containsOnly("created");
    assertThat(r.get("files").get(2).get("path").stringValue()).isEqualTo("bin/loopx_provider.py");
    assertThat(r.get("next_commands").get("build").stringValue())
        .isEqualTo(dest.resolve("bin/loopx-example") + " --doctor");
    assertThat(Files.isExecutable(dest.resolve("bin/loopx-example"))).isTrue();
    assertThat(Files.exists(dest.resolve("pom.xml"))).isFalse();
  }

  @Test
  void anUnknownLanguageIsScaffoldInvalid() {
    ObjectNode e =
        cli.error(
            "scaffold_invalid",
            "extension",
            "init",
            "loopx-example",
            "--destination",
            dest.toString(),
            "--language",
            "ruby");
    assertThat(e.get("error").stringValue())
        .isEqualTo("invalid extension starter language `ruby`: must be java or python");
    assertThat(Files.exists(dest.getParent())).isFalse();
  }
}
