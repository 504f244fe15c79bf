package io.loopx.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Data the CLI did not author cannot drive a terminal: a hostile manifest given with {@code
 * --extension-manifest} is refused naming the key, provider output of {@code extension run} and
 * every error message quoting input show control, separator and bidirectional control characters as
 * {@code \}{@code uXXXX}, in text and in JSON.
 */
class TerminalInjectionTest {
  /** Clear screen, an OSC 0 window title, an OSC 8 hyperlink, BEL, CSI (C1), RLO, LS, DEL. */
  static final String HOSTILE =
      "\u001b[2J\u001b]0;pwned\u0007\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\"
          + "\u009b31m\u202Eabc\u2028\u007f\u2066";

  @TempDir Path tmp;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(tmp);
  }

  /** Fails if {@code output} holds any unsafe character but the line breaks ending its lines. */
  static void assertTerminalSafe(String output) {
    String withoutLineEnds = output.replace("\n", "");
    assertThat(withoutLineEnds.codePoints().filter(SafeText::isUnsafe).toArray())
        .as("raw control characters in %s", output)
        .isEmpty();
  }

  Path hostileManifest(String field) throws IOException {
    Path dir = tmp.resolve("hostile");
    Path manifest = Cli.writeProvider(dir, "hostile-ext", "1.0.0");
    String provides =
        """
        [[provides]]
        id = "hostile-notes"
        kind = "note_index"
        title = "Notes"
        status = "experimental"
        user_value = "Find notes."
        next_real_step = "Index them."
        real_world_anchor = "A user searches notes."
        entry_command = "loopx capability show hostile-notes"
        """;
    String line = provides.lines().filter(l -> l.startsWith(field + " = ")).findFirst().get();
    String value = line.substring(line.indexOf('"') + 1, line.length() - 1);
    Files.writeString(
        manifest,
        Files.readString(manifest)
            + provides.replace(line, field + " = \"" + value + toml(HOSTILE) + " end\""));
    return manifest;
  }

  /** The body of a TOML basic string for {@code text}, every unsafe character as an escape. */
  static String toml(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .forEach(
            cp -> {
              if (SafeText.isUnsafe(cp) || cp == '"' || cp == '\\') {
                out.append(String.format("\\u%04X", cp));
              } else {
                out.appendCodePoint(cp);
              }
            });
    return out.toString();
  }

  // ------------------------------------------------------------------ catalog reads

  @ParameterizedTest
  @ValueSource(strings = {"title", "status", "entry_command", "real_world_anchor", "user_value"})
  void aHostileDeclaredManifestIsRefusedNamingTheKeyInText(String field) throws IOException {
    Path manifest = hostileManifest(field);

    for (List<String> command :
        List.of(List.of("capability", "list"), List.of("capability", "show", "hostile-notes"))) {
      String[] args =
          IntStream.range(0, command.size() + 2)
              .mapToObj(
                  i ->
                      i < command.size()
                          ? command.get(i)
                          : i == command.size() ? "--extension-manifest" : manifest.toString())
              .toArray(String[]::new);
      Cli.Result r = cli.run(args);

      assertThat(r.exitCode()).isEqualTo(2);
      assertThat(r.stdout()).isEmpty();
      assertThat(r.stderr())
          .startsWith("loopx: error [manifest_invalid]: ")
          .contains(": provides[0]." + field + ": contains a control character U+001B");
      assertTerminalSafe(r.stderr());
    }
  }

  @Test
  void aHostileDeclaredManifestIsRefusedInJson() throws IOException {
    Path manifest = hostileManifest("title");

    Cli.Result r =
        cli.run(
            "capability", "list", "--extension-manifest", manifest.toString(), "--format", "json");

    assertThat(r.exitCode()).isEqualTo(2);
    assertTerminalSafe(r.stdout());
    ObjectNode packet = r.json();
    Cli.assertErrorPacket(packet, "manifest_invalid");
    assertThat(packet.get("error").stringValue())
        .contains(": provides[0].title: contains a control character U+001B");
  }

  @Test
  void aHostileVersionIsRefusedAtInstall() throws IOException {
    Path dir = tmp.resolve("hostile-version");
    Path manifest = Cli.writeProvider(dir, "hostile-ext", "1.0" + toml("\u202E") + "0");

    Cli.Result r = cli.run("extension", "install", "--manifest", manifest.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr()).contains(": version: contains a bidirectional control character U+202E");
    assertTerminalSafe(r.stderr());
    assertThat(Files.exists(cli.stateFile())).isFalse();
  }

  // ------------------------------------------------------------------ error messages quoting input

  @Test
  void aPathQuotedByAnErrorIsEscaped() {
    String path = tmp.resolve("no" + HOSTILE + "where").resolve("extension.toml").toString();

    Cli.Result text = cli.run("capability", "list", "--extension-manifest", path);
    Cli.Result json =
        cli.run("capability", "list", "--extension-manifest", path, "--format", "json");

    assertThat(text.exitCode()).isEqualTo(2);
    assertThat(text.stderr()).contains("no\\u001B[2J\\u001B]0;pwned\\u0007").contains("\\u202E");
    assertTerminalSafe(text.stderr());
    assertThat(json.exitCode()).isEqualTo(2);
    assertTerminalSafe(json.stdout());
    // the library's message already quotes the path escaped (ManifestException)
    assertThat(json.json().get("error").stringValue())
        .contains("no\\u001B[2J\\u001B]0;pwned\\u0007");
  }

  @Test
  void aUsageErrorQuotingAnArgumentIsEscaped() {
    Cli.Result text = cli.run("capability", "list", "--colour" + HOSTILE);
    Cli.Result json = cli.run("capability", "list", "--colour" + HOSTILE, "--format", "json");

    assertThat(text.exitCode()).isEqualTo(2);
    assertThat(text.stderr()).startsWith("loopx: error [usage]: ").contains("\\u001B[2J");
    assertTerminalSafe(text.stderr());
    assertThat(json.exitCode()).isEqualTo(2);
    assertTerminalSafe(json.stdout());
    assertThat(json.json().get("kind").stringValue()).isEqualTo("usage");
    // picocli quotes the argument raw; the JSON writer escapes it and it reads back raw
    assertThat(json.stdout()).contains("\\u009B31m\\u202Eabc\\u2028\\u007F\\u2066");
    assertThat(json.json().get("error").stringValue()).contains("--colour" + HOSTILE);
  }

  // ------------------------------------------------------------------ provider output

  Path request() throws IOException {
    ObjectNode request = JsonNodeFactory.instance.objectNode();
    request.put("schema_version", "echo_request_v0");
    request.put("text", HOSTILE);
    request.put("k" + HOSTILE, "v\u0085\u2029\u202A");
    request.putObject("nested\u001b[1m").put("deep\u2067", "\u001b]0;t\u0007");
    Path file = tmp.resolve("hostile-request.json");
    Files.writeString(file, Cli.JSON.writeValueAsString(request));
    return file;
  }

  String installEcho() throws IOException {
    Path manifest = ExtensionRunCommandTest.writeEchoProvider(tmp.resolve("echo"), "echo-ext", "");
    cli.json(0, "extension", "install", "--manifest", manifest.toString(), "--execute");
    return manifest.toString();
  }

  @Test
  void providerOutputKeysAndValuesAreEscapedInText() throws IOException {
    installEcho();

    Cli.Result r =
        cli.run("extension", "run", "echo-ext", "--input-json", request().toString(), "--execute");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertTerminalSafe(r.stdout());
    String escaped = SafeText.escaped(HOSTILE);
    assertThat(escaped).startsWith("\\u001B[2J\\u001B]0;pwned\\u0007").contains("\\u202Eabc");
    assertThat(r.stdout())
        .containsPattern("(?m)^provider_result\\.text: +\\Q" + escaped + "\\E$")
        .containsPattern("(?m)^provider_result\\.k\\Q" + escaped + "\\E: +v\\\\u0085")
        .contains("provider_result.nested\\u001B[1m.deep\\u2067:")
        .contains("\\u001B]0;t\\u0007");
  }

  @Test
  void providerOutputIsEscapedInJsonAndReadsBackUnchanged() throws IOException {
    installEcho();

    Cli.Result r =
        cli.run(
            "extension",
            "run",
            "echo-ext",
            "--input-json",
            request().toString(),
            "--execute",
            "--format",
            "json");

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertTerminalSafe(r.stdout());
    assertThat(r.stdout()).contains("\\u009B31m\\u202Eabc\\u2028\\u007F\\u2066");
    JsonNode result = r.json().get("provider_result");
    assertThat(result.get("text").stringValue()).isEqualTo(HOSTILE);
    assertThat(result.get("k" + HOSTILE).stringValue()).isEqualTo("v\u0085\u2029\u202A");
    assertThat(result.get("nested\u001b[1m").get("deep\u2067").stringValue())
        .isEqualTo("\u001b]0;t\u0007");
  }

  @Test
  void colourCodesAreTheOnlyEscapesInColouredText() throws IOException {
    cli = new Cli(tmp, true);
    installEcho();

    Cli.Result r =
        cli.run("extension", "run", "echo-ext", "--input-json", request().toString(), "--execute");

    assertThat(r.exitCode()).isZero();
    // the status is coloured (ESC [ 32 m ... ESC [ 0 m); nothing else carries an ESC
    String withoutStyle = r.stdout().replaceAll("\u001b\\[[0-9;]*m", "");
    assertTerminalSafe(withoutStyle);
    assertThat(r.stdout()).contains("\u001b[32m");
  }
}
