package io.loopx.samples.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.LoopxException;
import io.loopx.api.Permission;
import io.loopx.api.Revision;
import io.loopx.api.envelope.EnvelopeVerifier;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.dispatch.DispatchRequest;
import io.loopx.testkit.DocumentedKeys;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code loopx semantic-preference recall} in process, with shell-script providers of the
 * capability that declare and require {@code semantic_preference.read}: JSON preview and execute,
 * stdin, text, the envelope the provider receives, and every documented failure.
 */
class SemanticPreferenceRecallCommandTest {
  static final String REQUEST =
      "{\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"green tea\",\"limit\":2}";

  @TempDir Path tmp;
  Cli cli;
  Path request;

  @BeforeEach
  void setUp() throws IOException {
    cli = new Cli(tmp);
    request = tmp.resolve("recall.json");
    Files.writeString(request, REQUEST);
  }

  /**
   * Writes a provider of {@code semantic-preference}: it records each call in {@code bin/calls} and
   * answers {@code {"ok":true, "provider":ID, "revision":REV, "received":REQUEST}} (its own id and
   * revision from the environment LoopX sets, and the request exactly as received), or {@code
   * {"ok":false}} with exit 1 to a query containing {@code fail}.
   *
   * @param permissions the TOML of the manifest's permissions
   * @param required the TOML of the runtime's required permissions
   */
  static Path writeRecallProvider(Path dir, String id, String permissions, String required)
      throws IOException {
    Path bin = dir.resolve("bin");
    Files.createDirectories(bin);
    Path script = bin.resolve("provider");
    Files.writeString(
        script,
        """
        #!/bin/sh
        [ "$1" = "--doctor" ] && exit 0
        echo call >> "$(dirname "$0")/calls"
        input=$(cat)
        case "$input" in
          *'"query":"fail'*) echo '{"ok":false,"error":"no preferences"}'; exit 1 ;;
        esac
        printf '{"ok":true,"provider":"%s","revision":"%s","received":%s}\\n' \\
          "$LOOPX_EXTENSION_ID" "$LOOPX_EXTENSION_REVISION" "$input"
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path manifest = dir.resolve("extension.toml");
    Files.writeString(
        manifest,
        """
        schema_version = "loopx_extension_manifest_v0"
        id = "%s"
        version = "1.0.0"
        requires_loopx_api = ">=1,<2"
        permissions = %s

        [runtime]
        protocol = "semantic_preference_provider_v0"
        entrypoint = "bin/provider"
        doctor_args = ["--doctor"]
        required_permissions = %s
        timeout_seconds = 10

        [[implements]]
        capability_id = "semantic-preference"
        protocol = "semantic_preference_provider_v0"
        """
            .formatted(id, permissions, required));
    return manifest;
  }

  static Path writeRecallProvider(Path dir, String id) throws IOException {
    return writeRecallProvider(
        dir, id, "[\"semantic_preference.read\"]", "[\"semantic_preference.read\"]");
  }

  Path install(String id) throws IOException {
    Path dir = tmp.resolve(id);
    Path manifest = writeRecallProvider(dir, id);
    cli.json(0, "extension", "install", "--manifest", manifest.toString(), "--execute");
    return dir;
  }

  static boolean called(Path dir) {
    return Files.exists(dir.resolve("bin").resolve("calls"));
  }

  ObjectNode recall(int exitCode, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of("semantic-preference", "recall", "--input-json", request.toString()));
    args.addAll(List.of(extra));
    return cli.json(exitCode, args.toArray(new String[0]));
  }

  static String revisionOf(ObjectNode list, String id) {
    for (JsonNode row : list.get("extensions").values()) {
      if (row.get("id").stringValue().equals(id)) {
        return row.get("active_revision").stringValue();
      }
    }
    throw new AssertionError(id + " not in " + list);
  }

  // ------------------------------------------------------------------ success

  @Test
  void previewResolvesChecksAndBindsButStartsNothing() throws IOException {
    Path dir = install("recall-local");
    String revision = revisionOf(cli.json(0, "extension", "list"), "recall-local");

    ObjectNode r = recall(0);

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.DISPATCH);
    assertThat(r.get("ok").booleanValue()).isTrue();
    assertThat(r.get("schema_version").stringValue()).isEqualTo("loopx_capability_dispatch_v0");
    assertThat(r.get("capability_id").stringValue()).isEqualTo("semantic-preference");
    assertThat(r.get("protocol").stringValue()).isEqualTo("semantic_preference_provider_v0");
    assertThat(r.get("action").stringValue()).isEqualTo("semantic_preference.recall");
    assertThat(r.get("extension_id").stringValue()).isEqualTo("recall-local");
    assertThat(r.get("revision").stringValue()).isEqualTo(revision);
    assertThat(r.get("dry_run").booleanValue()).isTrue();
    assertThat(r.get("executed").booleanValue()).isFalse();
    assertThat(r.get("status").stringValue()).isEqualTo("ready");
    assertThat(r.get("failure_kind").isNull()).isTrue();
    assertThat(r.get("exit_code").isNull()).isTrue();
    assertThat(r.get("provider_result").isNull()).isTrue();
    assertThat(called(dir)).isFalse();
  }

  @Test
  void executeSendsTheRequestWithAVerifiableEnvelope() throws IOException {
    install("recall-local");

    ObjectNode r = recall(0, "--execute");

    assertThat(DocumentedKeys.of(r)).containsExactlyElementsOf(DocumentedKeys.DISPATCH);
    assertThat(r.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(r.get("executed").booleanValue()).isTrue();
    assertThat(r.get("exit_code").intValue()).isZero();
    JsonNode result = r.get("provider_result");
    assertThat(result.get("provider").stringValue()).isEqualTo("recall-local");
    assertThat(result.get("revision").stringValue()).isEqualTo(r.get("revision").stringValue());
    ObjectNode received = (ObjectNode) result.get("received");
    // the caller's object, in its order, plus the envelope
    assertThat(DocumentedKeys.of(received))
        .containsExactly("schema_version", "query", "limit", "execution_envelope");
    JsonNode envelope = received.get("execution_envelope");
    assertThat(DocumentedKeys.of(envelope)).containsExactlyElementsOf(DocumentedKeys.ENVELOPE);
    assertThat(envelope.get("schema_version").stringValue())
        .isEqualTo("loopx_extension_execution_envelope_v0");
    assertThat(envelope.get("action").stringValue()).isEqualTo("semantic_preference.recall");
    assertThat(envelope.get("scope"))
        .isEqualTo(
            Cli.JSON.readTree(
                "{\"capability_id\":\"semantic-preference\",\"operation\":\"recall\"}"));
    assertThat(envelope.get("extension").get("id").stringValue()).isEqualTo("recall-local");
    // what the provider would check before any effect
    ObjectNode bare =
        EnvelopeVerifier.verify(
            received,
            new EnvelopeVerifier.Expectation(
                SampleHostPolicy.RECALL,
                SampleHostPolicy.recallScope(),
                ExtensionId.of(result.get("provider").stringValue()),
                Revision.of(result.get("revision").stringValue())));
    assertThat(bare).isEqualTo(Cli.JSON.readTree(REQUEST));
  }

  @Test
  void theRequestCanComeFromStdin() throws IOException {
    install("recall-local");

    ObjectNode r =
        cli.jsonWithStdin(
            0,
            REQUEST.getBytes(UTF_8),
            "semantic-preference",
            "recall",
            "--input-json",
            "-",
            "--execute");

    assertThat(r.get("provider_result").get("received").get("query").stringValue())
        .isEqualTo("green tea");
  }

  @Test
  void aFailedRecallExitsOneWithItsReceipt() throws IOException {
    install("recall-local");
    Files.writeString(request, "{\"query\":\"fail please\"}");

    ObjectNode r = recall(1, "--execute");

    assertThat(r.get("ok").booleanValue()).isFalse();
    assertThat(r.get("status").stringValue()).isEqualTo("provider_failed");
    assertThat(r.get("exit_code").intValue()).isEqualTo(1);
    assertThat(r.get("provider_result").get("error").stringValue()).isEqualTo("no preferences");
  }

  @Test
  void text() throws IOException {
    install("recall-local");

    Cli.Result preview =
        cli.run("semantic-preference", "recall", "--input-json", request.toString());
    Cli.Result executed =
        cli.run("semantic-preference", "recall", "--input-json", request.toString(), "--execute");

    assertThat(preview.exitCode()).isZero();
    assertThat(preview.stdout())
        .containsPattern("(?m)^action: +semantic_preference\\.recall$")
        .containsPattern("(?m)^status: +ready$")
        .endsWith("Preview only: the provider was not started. Add --execute to run it.\n");
    assertThat(executed.exitCode()).isZero();
    assertThat(executed.stderr()).isEmpty();
    assertThat(executed.stdout())
        .containsPattern("(?m)^status: +succeeded$")
        .containsPattern(
            "(?m)^provider_result\\.received\\.execution_envelope\\.action: +semantic_preference"
                + "\\.recall$");
  }

  // ------------------------------------------------------------------ resolution

  @Test
  void withoutAProviderResolutionFails() {
    ObjectNode e = recall(2);

    Cli.assertErrorPacket(e, "resolution_failed");
    assertThat(e.get("error").stringValue())
        .isEqualTo(
            "no enabled, doctor-ready extension implements semantic-preference with protocol"
                + " semantic_preference_provider_v0");
  }

  @Test
  void aDisabledProviderDoesNotResolve() throws IOException {
    Path dir = install("recall-local");
    cli.json(0, "extension", "disable", "recall-local", "--execute");

    Cli.assertErrorPacket(recall(2, "--execute"), "resolution_failed");
    Cli.assertErrorPacket(
        recall(2, "--execute", "--extension-id", "recall-local"), "extension_disabled");
    assertThat(called(dir)).isFalse();
  }

  @Test
  void aStaleProviderDoesNotResolve() throws IOException {
    Path dir = install("recall-local");
    Files.writeString(
        dir.resolve("bin").resolve("provider"), "\n# changed\n", StandardOpenOption.APPEND);

    Cli.assertErrorPacket(recall(2, "--execute"), "resolution_failed");
    ObjectNode named = recall(2, "--execute", "--extension-id", "recall-local");
    Cli.assertErrorPacket(named, "doctor_stale");
    assertThat(called(dir)).isFalse();
  }

  @Test
  void ambiguousProvidersNeedExtensionId() throws IOException {
    Path a = install("recall-a");
    Path b = install("recall-b");

    ObjectNode e = recall(2, "--execute");
    Cli.assertErrorPacket(e, "resolution_failed");
    assertThat(e.get("error").stringValue())
        .isEqualTo(
            "multiple enabled, doctor-ready extensions implement semantic-preference with"
                + " protocol semantic_preference_provider_v0: [recall-a, recall-b]");
    assertThat(called(a) || called(b)).isFalse();

    ObjectNode r = recall(0, "--execute", "--extension-id", "recall-b");
    assertThat(r.get("extension_id").stringValue()).isEqualTo("recall-b");
    assertThat(r.get("provider_result").get("provider").stringValue()).isEqualTo("recall-b");
    assertThat(called(a)).isFalse();
    assertThat(called(b)).isTrue();
  }

  @Test
  void aNamedProviderMustBeInstalledAndImplementTheCapability() throws IOException {
    install("recall-local");
    Path standalone = Cli.writeProvider(tmp.resolve("plain"), "plain-ext", "1.0.0");
    cli.json(0, "extension", "install", "--manifest", standalone.toString(), "--execute");

    ObjectNode ghost = recall(2, "--extension-id", "ghost-ext");
    Cli.assertErrorPacket(ghost, "not_installed");
    assertThat(ghost.get("error").stringValue())
        .isEqualTo("extension `ghost-ext` is not installed");

    ObjectNode plain = recall(2, "--extension-id", "plain-ext");
    Cli.assertErrorPacket(plain, "resolution_failed");
    assertThat(plain.get("error").stringValue())
        .startsWith("provider `plain-ext` does not implement");

    Cli.assertErrorPacket(recall(2, "--extension-id", "Bad_Id"), "usage");
  }

  // ------------------------------------------------------------------ permission, input, usage

  @Test
  void theProviderMustDeclareAndRequireThePermission() throws IOException {
    Path undeclared = tmp.resolve("undeclared");
    writeRecallProvider(undeclared, "recall-undeclared", "[]", "[]");
    cli.json(
        0,
        "extension",
        "install",
        "--manifest",
        undeclared.resolve("extension.toml").toString(),
        "--execute");

    ObjectNode e = recall(2, "--execute");
    Cli.assertErrorPacket(e, "permission_denied");
    assertThat(e.get("error").stringValue())
        .isEqualTo(
            "extension `recall-undeclared` does not declare permission"
                + " `semantic_preference.read`");

    cli.json(0, "extension", "disable", "recall-undeclared", "--execute");
    Path unrequired = tmp.resolve("unrequired");
    writeRecallProvider(unrequired, "recall-unrequired", "[\"semantic_preference.read\"]", "[]");
    cli.json(
        0,
        "extension",
        "install",
        "--manifest",
        unrequired.resolve("extension.toml").toString(),
        "--execute");

    ObjectNode f = recall(2);
    Cli.assertErrorPacket(f, "permission_denied");
    assertThat(f.get("error").stringValue())
        .isEqualTo(
            "extension `recall-unrequired` runtime does not require permission"
                + " `semantic_preference.read`");
    assertThat(called(undeclared) || called(unrequired)).isFalse();
  }

  @Test
  void badInputIsRequestInvalidAndReadFirst() throws IOException {
    // no provider is installed: the input is checked before resolution
    String[][] cases = {
      {"\"text\"", "request must be a JSON object"},
      {"{", "request must be a readable JSON object"},
      {"{\"execution_envelope\":{\"action\":\"x\"}}", "request contains reserved field"},
    };
    for (String[] c : cases) {
      Files.writeString(request, c[0]);
      ObjectNode e = recall(2, "--execute");
      Cli.assertErrorPacket(e, "request_invalid");
      assertThat(e.get("error").stringValue()).as(c[0]).startsWith(c[1]);
    }
    byte[] big = new byte[1_000_001];
    java.util.Arrays.fill(big, (byte) ' ');
    ObjectNode e = cli.jsonWithStdin(2, big, "semantic-preference", "recall", "--input-json", "-");
    Cli.assertErrorPacket(e, "request_invalid");
    assertThat(e.get("error").stringValue()).isEqualTo("request exceeds the 1000000-byte limit");
  }

  /**
   * The exact numbers and the size as sent (docs/contract/dispatch.md#binding): the host checks
   * what it sends. A 999,900-byte request passes the input cap but not with its envelope; a number
   * the digest would round is not bound. Neither reaches the provider, in a preview or an execute.
   */
  @Test
  void whatTheHostWouldSendIsCheckedBeforeTheProviderStarts() throws IOException {
    Path dir = install("recall-local");
    String head = "{\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"";
    String tail = "\",\"limit\":2}";
    Files.writeString(request, head + "x".repeat(999_900 - head.length() - tail.length()) + tail);
    assertThat(Files.size(request)).isEqualTo(999_900);
    for (ObjectNode e : List.of(recall(2), recall(2, "--execute"))) {
      Cli.assertErrorPacket(e, "request_invalid");
      assertThat(e.get("error").stringValue())
          .startsWith("the request with its execution envelope exceeds the 1000000-byte limit: ");
    }

    Files.writeString(
        request,
        "{\"schema_version\":\"semantic_preference_request_v0\",\"query\":\"green tea\","
            + "\"limit\":9007199254740993.0}");
    for (ObjectNode e : List.of(recall(2), recall(2, "--execute"))) {
      Cli.assertErrorPacket(e, "request_invalid");
      assertThat(e.get("error").stringValue())
          .startsWith(
              "request number 9007199254740993.0 at `/limit` is not exactly a double: its nearest"
                  + " double is 9007199254740992,");
    }
    assertThat(called(dir)).isFalse();
  }

  @Test
  void withoutInputJsonIsAUsageError() {
    ObjectNode e = cli.error("usage", "semantic-preference", "recall", "--execute");
    assertThat(e.get("error").stringValue()).contains("--input-json");
    cli.error("usage", "semantic-preference");
    cli.error("usage", "semantic-preference", "recall", "--input-json", request.toString(), "x");
  }

  // ------------------------------------------------------------------ the sample host's policy

  static DispatchRequest.Builder dispatch(String action, ObjectNode scope) {
    return DispatchRequest.builder(
            SampleCatalog.SEMANTIC_PREFERENCE,
            SemanticPreferenceRecallCommand.PROTOCOL,
            io.loopx.api.ActionToken.of(action))
        .scope(scope)
        .permission(Permission.of("semantic_preference.read"));
  }

  /** What the policy is asked about: the dispatch with an empty request. */
  static DispatchRequest asked(String action, ObjectNode scope) {
    return dispatch(action, scope).input("{}".getBytes(UTF_8)).build();
  }

  @Test
  void thePolicyAllowsExactlyRecallOnItsScope() {
    SampleHostPolicy policy = new SampleHostPolicy();
    ObjectNode wider = SampleHostPolicy.recallScope();
    wider.put("owner", "*");
    ObjectNode other = SampleHostPolicy.recallScope();
    other.put("operation", "forget");

    assertThat(
            policy
                .decide(asked("semantic_preference.recall", SampleHostPolicy.recallScope()))
                .allowed())
        .isTrue();
    assertThat(
            policy
                .decide(asked("semantic_preference.forget", SampleHostPolicy.recallScope()))
                .reason())
        .hasValueSatisfying(r -> assertThat(r).contains("`semantic_preference.forget`"));
    assertThat(policy.decide(asked("semantic_preference.recall", wider)).allowed()).isFalse();
    assertThat(policy.decide(asked("semantic_preference.recall", other)).allowed()).isFalse();
  }

  /**
   * The CLI always asks for {@code semantic_preference.recall} on the recall scope, so a refusal is
   * not reachable from the command line; this shows the session's facade carries the policy: any
   * other action is {@code policy_denied} after resolution and the permission check.
   */
  @Test
  void theSessionFacadeRefusesAnyOtherAction() throws IOException {
    Path dir = install("recall-local");
    CliSession session =
        new CliSession(
            cli.environment,
            Format.JSON,
            java.io.InputStream.nullInputStream(),
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()));
    Loopx loopx = session.loopx(new Settings(cli.stateFile(), Mode.EXECUTE, Format.JSON));

    assertThatThrownBy(
            () ->
                loopx.dispatch(
                    dispatch("semantic_preference.forget", SampleHostPolicy.recallScope())
                        .input(REQUEST.getBytes(UTF_8))
                        .build(),
                    Mode.EXECUTE))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.POLICY_DENIED);
              assertThat(e.getMessage()).contains("semantic_preference.forget");
            });
    assertThat(called(dir)).isFalse();
    assertThat(
            loopx
                .dispatch(
                    dispatch("semantic_preference.recall", SampleHostPolicy.recallScope())
                        .input(REQUEST.getBytes(UTF_8))
                        .build(),
                    Mode.PREVIEW)
                .ok())
        .isTrue();
  }
}
