package io.loopx.samples.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * Usage errors, help, the global options in every position, and the error contract: exit 2, one
 * error packet on stdout with {@code --format json} (even when parsing failed), one line on stderr
 * with text, never a stack trace.
 */
class UsageTest {
  @TempDir Path tmp;
  Cli cli;
  String manifest;

  @BeforeEach
  void setUp() throws IOException {
    cli = new Cli(tmp);
    manifest = Cli.writeProvider(tmp.resolve("pkg"), "demo-ext", "1.0.0").toString();
  }

  static List<List<String>> usageErrors() {
    return List.of(
        List.of(),
        List.of("bogus"),
        List.of("extension"),
        List.of("extension", "bogus"),
        List.of("capability"),
        List.of("extension", "list", "--bogus"),
        List.of("--bogus", "extension", "list"),
        List.of("extension", "list", "--format", "xml"),
        List.of("extension", "list", "--format", "JSON"),
        List.of("extension", "list", "--format"),
        List.of("extension", "list", "extra"),
        List.of("extension", "install"),
        List.of("extension", "install", "--manifest", "a.toml", "--bundled", "b"),
        List.of("extension", "upgrade"),
        List.of("extension", "upgrade", "--manifest", "a.toml", "--bundled", "b"),
        List.of("extension", "install", "--bundled", "Not_An_Id"),
        List.of("extension", "doctor"),
        List.of("extension", "doctor", "demo-ext", "--all-enabled"),
        List.of("extension", "doctor", "Bad_Id"),
        List.of("extension", "doctor", "../escape"),
        List.of("extension", "enable"),
        List.of("extension", "enable", "UPPER"),
        List.of("extension", "disable", "trailing-"),
        List.of("extension", "rollback", "a--b"),
        List.of("extension", "enable", "a", "b"),
        List.of("capability", "show"),
        List.of("capability", "show", "Bad/Id"),
        List.of("extension", "list", "--runtime-root"),
        List.of("extension", "list", "--runtime-root", "bad\0path"),
        List.of("extension", "install", "--manifest", "bad\0path"),
        List.of("extension", "enable", "@ids"),
        List.of("extension", "run"),
        List.of("extension", "run", "demo-ext"),
        List.of("extension", "run", "--input-json", "-"),
        List.of("extension", "run", "demo-ext", "--input-json"),
        List.of("extension", "run", "Bad_Id", "--input-json", "-"),
        List.of("extension", "run", "demo-ext", "--input-json", "bad\0path"),
        List.of("semantic-preference"),
        List.of("semantic-preference", "recall"),
        List.of("semantic-preference", "recall", "--input-json", "-", "--extension-id", "Bad_Id"),
        List.of("semantic-preference", "recall", "--input-json", "-", "extra"),
        List.of("demo", "some.toml"),
        List.of("demo", "--validate", "--keep"));
  }

  @ParameterizedTest
  @MethodSource("usageErrors")
  void usageErrorsInJson(List<String> args) {
    String[] withJson =
        Stream.concat(args.stream(), Stream.of("--format", "json")).toArray(String[]::new);
    // a bad --format value reports in text; every other case asks for JSON at the end
    boolean badFormat = args.contains("--format");
    Cli.Result r = cli.raw(badFormat ? args.toArray(new String[0]) : withJson);

    assertThat(r.exitCode()).as("%s: %s %s", args, r.stdout(), r.stderr()).isEqualTo(2);
    if (badFormat) {
      assertThat(r.stdout()).isEmpty();
      assertThat(r.stderr()).startsWith("loopx: error [usage]: ");
    } else {
      assertThat(r.stderr()).isEmpty();
      Cli.assertErrorPacket(r.json(), "usage");
    }
    assertNoStackTrace(r);
  }

  @ParameterizedTest
  @MethodSource("usageErrors")
  void usageErrorsInText(List<String> args) {
    Cli.Result r = cli.raw(args.toArray(new String[0]));

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).startsWith("loopx: error [usage]: ").contains("Run `loopx --help`");
    assertNoStackTrace(r);
  }

  @Test
  void aParseFailureStillReportsInJsonWhenAskedAnywhere() {
    Cli.Result first = cli.raw("--format", "json", "extension", "bogus");
    Cli.Result equals = cli.raw("extension", "--format=json", "install");

    Cli.assertErrorPacket(first.json(), "usage");
    Cli.assertErrorPacket(equals.json(), "usage");
  }

  @Test
  void theLastFormatWins() {
    Cli.Result r = cli.run("--format", "json", "extension", "list", "--format", "text");

    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).isEqualTo("No extensions installed.\n");
  }

  @Test
  void bothOrNeitherMessagesNameTheChoice() {
    assertThat(cli.error("usage", "extension", "install").get("error").stringValue())
        .isEqualTo("specify exactly one of --manifest PATH or --bundled ID");
    assertThat(cli.error("usage", "extension", "doctor").get("error").stringValue())
        .isEqualTo("specify exactly one of ID or --all-enabled");
    assertThat(cli.error("usage", "extension", "enable", "Bad_Id").get("error").stringValue())
        .contains("`Bad_Id`");
  }

  static List<List<String>> globalOptionPositions() {
    return List.of(
        List.of(
            "--format",
            "json",
            "--runtime-root",
            "{root}",
            "--execute",
            "extension",
            "install",
            "--manifest",
            "{manifest}"),
        List.of(
            "extension",
            "--format",
            "json",
            "--execute",
            "install",
            "--runtime-root",
            "{root}",
            "--manifest",
            "{manifest}"),
        List.of(
            "extension",
            "install",
            "--manifest",
            "{manifest}",
            "--runtime-root",
            "{root}",
            "--execute",
            "--format",
            "json"),
        List.of(
            "--runtime-root",
            "{root}",
            "extension",
            "--execute",
            "install",
            "--format=json",
            "--manifest={manifest}"));
  }

  @ParameterizedTest
  @MethodSource("globalOptionPositions")
  void globalOptionsWorkInEveryPosition(List<String> template) {
    String[] args =
        template.stream()
            .map(a -> a.replace("{root}", cli.root.toString()).replace("{manifest}", manifest))
            .toArray(String[]::new);

    Cli.Result r = cli.raw(args);

    assertThat(r.exitCode()).as("%s", r.stderr()).isZero();
    ObjectNode receipt = r.json();
    assertThat(receipt.get("changed").booleanValue()).isTrue();
    assertThat(cli.stateFile()).isRegularFile();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "extension",
        "extension install",
        "extension upgrade",
        "extension list",
        "extension doctor",
        "extension enable",
        "extension disable",
        "extension rollback",
        "extension run",
        "capability",
        "capability list",
        "capability show",
        "semantic-preference",
        "semantic-preference recall",
        "state",
        "state migrate",
        "state import",
        "demo"
      })
  void helpWorksForEveryCommand(String command) {
    for (String flag : List.of("--help", "-h")) {
      List<String> args =
          new ArrayList<>(command.isEmpty() ? List.of() : List.of(command.split(" ")));
      args.add(flag);

      Cli.Result r = cli.raw(args.toArray(new String[0]));

      assertThat(r.exitCode()).isZero();
      assertThat(r.stderr()).isEmpty();
      assertThat(r.stdout())
          .startsWith("Usage: loopx" + (command.isEmpty() ? "" : " " + command))
          .contains(
              "--runtime-root=DIR",
              "--state-file=FILE",
              "--state-jdbc-url=URL",
              "--execute",
              "--format=FORMAT");
    }
  }

  @Test
  void versionPrintsTheLibraryVersion() {
    Cli.Result r = cli.raw("--version");

    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).startsWith("loopx (LoopX ");
  }

  @Test
  void aFailingEnvironmentIsReportedNotThrown() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code =
        LoopxCli.execute(
            new String[] {"extension", "list", "--format", "json"},
            out,
            err,
            () -> {
              throw new IllegalStateException("broken environment");
            });

    assertThat(code).isEqualTo(2);
    Cli.Result r = new Cli.Result(code, out.toString(UTF_8), err.toString(UTF_8));
    Cli.assertErrorPacket(r.json(), "internal_error");
    assertThat(r.json().get("error").stringValue())
        .isEqualTo("IllegalStateException: broken environment");
  }

  static void assertNoStackTrace(Cli.Result r) {
    for (String stream : List.of(r.stdout(), r.stderr())) {
      assertThat(stream).doesNotContain("\tat ", "Exception in thread", ".java:");
    }
  }
}
