package io.loopx.samples.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.testkit.DocumentedKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code loopx extension run ID --input-json (PATH | -)} in process, with a shell-script provider:
 * JSON preview and execute, stdin, text, and every documented failure (exit 2) or failed run (exit
 * 1).
 */
class ExtensionRunCommandTest {
  static final String REQUEST = "{\"schema_version\":\"echo_request_v0\",\"text\":\"grüß 🌍\"}";

  @TempDir Path tmp;
  Cli cli;
  Path pkg;
  String manifest;
  Path request;

  @BeforeEach
  void setUp() throws IOException {
    // Off, so that "a preview starts nothing" is observed through the provider's record of runs;
    // executeRunsIsolatedByDefault covers the CLI's default.
    cli = Cli.unisolated(tmp);
    pkg = tmp.resolve("echo-pkg");
    manifest = writeEchoProvider(pkg, "echo-ext", "").toString();
    request = tmp.resolve("request.json");
    Files.writeString(request, REQUEST);
  }

  /**
   * Writes a standalone provider that records each run in {@code bin/runs} (refused when it runs
   * isolated, as the CLI runs standalone extensions by default: the package is read-only; this
   * class's CLI sets isolation off so that the record shows whether a provider ran), answers {@code
   * {"ok":false}} with exit 1 to a request containing {@code "mode":"fail"}, and otherwise echoes
   * the request.
   */
  static Path writeEchoProvider(Path dir, String id, String extraToml) throws IOException {
    Path bin = dir.resolve("bin");
    Files.createDirectories(bin);
    Path script = bin.resolve("provider");
    Files.writeString(
        script,
        """
        #!/bin/sh
        [ "$1" = "--doctor" ] && exit 0
        echo run >> "$(dirname "$0")/runs"
        input=$(cat)
        case "$input" in
          *'"mode":"fail"'*) echo '{"ok":false,"error":"asked to fail"}'; exit 1 ;;
        esac
        printf '%s\\n' "$input"
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path file = dir.resolve("extension.toml");
    Files.writeString(
        file,
        """
        schema_version = "loopx_extension_manifest_v0"
        id = "%s"
        version = "1.0.0"
        requires_loopx_api = ">=1,<2"
        %s
        [runtime]
        protocol = "echo_ext_v0"
        entrypoint = "bin/provider"
        doctor_args = ["--doctor"]
        timeout_seconds = 10
        """
            .formatted(id, extraToml));
    return file;
  }

  void install() {
    cli.json(0, "extension", "install", "--manifest", manifest, "--execute");
  }

  boolean providerRan() {
    return Files.exists(pkg.resolve("bin").resolve("runs"));
  }

  ObjectNode run(int exitCode, String... extra) {
    String[] args = {"extension", "run", "echo-ext", "--input-json", request.toString()};
    String[] all = Arrays.copyOf(args, args.length + extra.length);
    System.arraycopy(extra, 0, all, args.length, extra.length);
    return cli.json(exitCode, all);
  }

  // ------------------------------------------------------------------ success

  @Test
  void previewChecksEverythingAndStartsNothing() {
    install();

    ObjectNode r = run(0);

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.RUN);
    assertThat(r.get("ok").booleanValue()).isTrue();
    assertThat(r.get("schema_version").stringValue()).isEqualTo("loopx_extension_run_receipt_v0");
    assertThat(r.get("operation").stringValue()).isEqualTo("run");
    assertThat(r.get("extension_id").stringValue()).isEqualTo("echo-ext");
    assertThat(r.get("provider_version").stringValue()).isEqualTo("1.0.0");
    assertThat(r.get("revision").stringValue()).matches("[0-9a-f]{16}");
    assertThat(r.get("protocol").stringValue()).isEqualTo("echo_ext_v0");
    assertThat(r.get("dry_run").booleanValue()).isTrue();
    assertThat(r.get("executed").booleanValue()).isFalse();
    assertThat(r.get("status").stringValue()).isEqualTo("ready");
    assertThat(r.get("failure_kind").isNull()).isTrue();
    assertThat(r.get("exit_code").isNull()).isTrue();
    assertThat(r.get("provider_result").isNull()).isTrue();
    assertThat(r.get("input_schema_version").stringValue()).isEqualTo("echo_request_v0");
    assertThat(providerRan()).isFalse();
  }

  @Test
  void executeRunsTheProviderOnTheRequest() {
    install();

    ObjectNode r = run(0, "--execute");

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.RUN);
    assertThat(r.get("ok").booleanValue()).isTrue();
    assertThat(r.get("dry_run").booleanValue()).isFalse();
    assertThat(r.get("executed").booleanValue()).isTrue();
    assertThat(r.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(r.get("exit_code").intValue()).isZero();
    assertThat(r.get("provider_result")).isEqualTo(Cli.JSON.readTree(REQUEST));
    assertThat(providerRan()).isTrue();
  }

  @Test
  void executeRunsIsolatedByDefault() {
    cli = new Cli(tmp); // the CLI sets no policy: its standalone extensions run isolated
    install();

    ObjectNode r = run(0, "--execute");

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(Keys.isolated(DocumentedKeys.RUN));
    assertThat(r.get("isolation").stringValue()).isEqualTo("bwrap");
    assertThat(r.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(r.get("provider_result")).isEqualTo(Cli.JSON.readTree(REQUEST));
    // Isolated, the provider ran with its package read-only: its record of the run was refused.
    assertThat(r.get("stderr_tail").stringValue()).contains("Read-only file system");
    assertThat(providerRan()).isFalse();
  }

  @Test
  void theRequestCanComeFromStdin() {
    install();

    ObjectNode r =
        cli.jsonWithStdin(
            0,
            REQUEST.getBytes(UTF_8),
            "extension",
            "run",
            "echo-ext",
            "--input-json",
            "-",
            "--execute");

    assertThat(r.get("provider_result").get("text").stringValue()).isEqualTo("grüß 🌍");
  }

  @Test
  void aFailedRunExitsOneWithItsReceipt() throws IOException {
    install();
    Files.writeString(request, "{\"mode\":\"fail\"}");

    ObjectNode r = run(1, "--execute");

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.RUN);
    assertThat(r.get("ok").booleanValue()).isFalse();
    assertThat(r.get("status").stringValue()).isEqualTo("provider_failed");
    assertThat(r.get("failure_kind").isNull()).isTrue();
    assertThat(r.get("exit_code").intValue()).isEqualTo(1);
    assertThat(r.get("provider_result").get("error").stringValue()).isEqualTo("asked to fail");
    assertThat(r.get("input_schema_version").isNull()).isTrue();
  }

  @Test
  void textShowsTheReceiptAndAPreviewReminder() {
    install();

    Cli.Result preview =
        cli.run("extension", "run", "echo-ext", "--input-json", request.toString());
    Cli.Result executed =
        cli.run("extension", "run", "echo-ext", "--input-json", request.toString(), "--execute");

    assertThat(preview.exitCode()).isZero();
    assertThat(preview.stderr()).isEmpty();
    assertThat(preview.stdout())
        .containsPattern("(?m)^status: +ready$")
        .containsPattern("(?m)^provider_result: +-$")
        .endsWith("Preview only: the provider was not started. Add --execute to run it.\n");
    assertThat(executed.exitCode()).isZero();
    assertThat(executed.stdout())
        .containsPattern("(?m)^status: +succeeded$")
        .containsPattern("(?m)^provider_result\\.text: +grüß 🌍$")
        .doesNotContain("Preview only");
  }

  // ------------------------------------------------------------------ failures

  @Test
  void withoutInputJsonIsAUsageError() {
    install();

    ObjectNode e = cli.error("usage", "extension", "run", "echo-ext", "--execute");
    assertThat(e.get("error").stringValue()).contains("--input-json");

    Cli.Result text = cli.run("extension", "run", "echo-ext");
    assertThat(text.exitCode()).isEqualTo(2);
    assertThat(text.stdout()).isEmpty();
    assertThat(text.stderr()).startsWith("loopx: error [usage]: ").contains("--input-json");
    assertThat(providerRan()).isFalse();
  }

  @Test
  void aBadIdIsAUsageError() {
    cli.error("usage", "extension", "run", "Echo_Ext", "--input-json", request.toString());
    cli.error("usage", "extension", "run", "--input-json", request.toString());
  }

  @Test
  void notInstalled() {
    ObjectNode e = run(2);
    Cli.assertErrorPacket(e, "not_installed");
    assertThat(e.get("error").stringValue()).isEqualTo("extension `echo-ext` is not installed");
  }

  @Test
  void theInputIsReadBeforeTheState() throws IOException {
    Files.writeString(request, "not json");
    Files.createDirectories(cli.stateFile().getParent());
    Files.writeString(cli.stateFile(), "[]"); // an unreadable state is never read

    ObjectNode e = run(2, "--execute");

    Cli.assertErrorPacket(e, "request_invalid");
    assertThat(e.get("error").stringValue()).startsWith("request must be a readable JSON object");
  }

  @Test
  void disabledIsRefusedInPreviewAndExecute() {
    install();
    cli.json(0, "extension", "disable", "echo-ext", "--execute");

    for (ObjectNode e : new ObjectNode[] {run(2), run(2, "--execute")}) {
      Cli.assertErrorPacket(e, "extension_disabled");
      assertThat(e.get("error").stringValue()).isEqualTo("extension `echo-ext` is disabled");
    }
    assertThat(providerRan()).isFalse();
  }

  @Test
  void aChangedProviderIsStale() throws IOException {
    install();
    Files.writeString(
        pkg.resolve("bin").resolve("provider"), "\necho changed\n", StandardOpenOption.APPEND);

    ObjectNode e = run(2, "--execute");

    Cli.assertErrorPacket(e, "doctor_stale");
    assertThat(e.get("error").stringValue())
        .isEqualTo(
            "extension `echo-ext` doctor readiness is stale; run `loopx extension doctor"
                + " echo-ext --execute`");
    assertThat(providerRan()).isFalse();
  }

  @Test
  void anExtensionDeclaringAPermissionIsRefused() throws IOException {
    manifest = writeEchoProvider(pkg, "echo-ext", "permissions = [\"notes.read\"]").toString();
    install();

    ObjectNode e = run(2);

    Cli.assertErrorPacket(e, "permission_denied");
    assertThat(e.get("error").stringValue()).contains("notes.read");
    assertThat(providerRan()).isFalse();
  }

  @Test
  void aStandaloneExtensionDeclaringAccessIsRefusedSoNoRunCanGrantIt() throws IOException {
    Files.writeString(
        pkg.resolve("extension.toml"),
        "access = [\"network\", \"read:data\"]\n",
        StandardOpenOption.APPEND);

    ObjectNode e = cli.json(2, "extension", "install", "--manifest", manifest, "--execute");

    Cli.assertErrorPacket(e, "manifest_invalid");
    assertThat(e.get("error").stringValue())
        .endsWith(
            "runtime.access: a standalone extension (no [[provides]] or [[implements]]) may"
                + " declare no access: `extension run` grants none");
    Cli.assertErrorPacket(run(2, "--execute"), "not_installed");
    assertThat(providerRan()).isFalse();
  }

  @Test
  void aCapabilityProviderIsNotStandalone() throws IOException {
    Files.writeString(
        pkg.resolve("extension.toml"),
        """
        [[implements]]
        capability_id = "semantic-preference"
        protocol = "echo_ext_v0"
        """,
        StandardOpenOption.APPEND);
    install();

    ObjectNode e = run(2, "--execute");

    Cli.assertErrorPacket(e, "resolution_failed");
    assertThat(e.get("error").stringValue())
        .contains("run only accepts standalone extensions")
        .contains("capability or domain command");
    assertThat(providerRan()).isFalse();
  }

  @Test
  void badInputIsRequestInvalid() throws IOException {
    install();
    String[][] cases = {
      {"[1, 2]", "request must be a JSON object"},
      {"{\"a\":1} {}", "request must be a readable JSON object"},
      {"{\"a\":1,\"a\":2}", "request must be a readable JSON object"},
      {"", "request must be a readable JSON object"},
      {"{\"execution_envelope\":{}}", "request contains reserved field `execution_envelope`"},
    };
    for (String[] c : cases) {
      Files.writeString(request, c[0]);
      ObjectNode e = run(2, "--execute");
      Cli.assertErrorPacket(e, "request_invalid");
      assertThat(e.get("error").stringValue()).as(c[0]).startsWith(c[1]);
    }
    Files.write(request, new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xff, '"', '}'});
    Cli.assertErrorPacket(run(2, "--execute"), "request_invalid");
    assertThat(providerRan()).isFalse();
  }

  @Test
  void anUnreadableInputFileIsRequestInvalid() {
    install();

    ObjectNode missing =
        cli.error(
            "request_invalid",
            "extension",
            "run",
            "echo-ext",
            "--input-json",
            tmp.resolve("absent.json").toString());
    ObjectNode directory =
        cli.error(
            "request_invalid", "extension", "run", "echo-ext", "--input-json", tmp.toString());

    assertThat(missing.get("error").stringValue())
        .startsWith("request must be a readable JSON object: cannot read `")
        .endsWith("absent.json`: no such file");
    assertThat(directory.get("error").stringValue())
        .startsWith("request must be a readable JSON object");
  }

  @Test
  void oversizeInputIsRefusedBeforeTheStateIsRead() throws IOException {
    byte[] big = new byte[1_000_001];
    Arrays.fill(big, (byte) ' ');
    big[0] = '{';
    big[big.length - 1] = '}';
    Files.write(request, big);

    ObjectNode fromFile = run(2, "--execute");
    ObjectNode fromStdin =
        cli.jsonWithStdin(2, big, "extension", "run", "echo-ext", "--input-json", "-", "--execute");

    for (ObjectNode e : new ObjectNode[] {fromFile, fromStdin}) {
      Cli.assertErrorPacket(e, "request_invalid");
      assertThat(e.get("error").stringValue()).isEqualTo("request exceeds the 1000000-byte limit");
    }
    assertThat(cli.root).doesNotExist();

    // exactly at the limit is accepted (and reaches the state: not installed)
    byte[] limit = Arrays.copyOf(big, 1_000_000);
    limit[limit.length - 1] = '}';
    Cli.assertErrorPacket(
        cli.jsonWithStdin(2, limit, "extension", "run", "echo-ext", "--input-json", "-"),
        "not_installed");
  }

  @Test
  void failuresInTextGoToStderr() {
    Cli.Result r = cli.run("extension", "run", "echo-ext", "--input-json", request.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr())
        .isEqualTo("loopx: error [not_installed]: extension `echo-ext` is not installed\n");
  }
}
