package io.loopx.runtime.run;

import static io.loopx.runtime.run.RunFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.process.OsProcessLauncher;
import io.loopx.runtime.internal.run.RequestBody;
import io.loopx.runtime.run.RunFixture.Spec;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every outcome row of docs/contract/run.md (and their combinations) with real shell-script
 * providers started through {@link Loopx#run}, plus what the provider receives: compact stdin,
 * argv, environment.
 */
class RunOutcomeTest {
  static final byte[] REQUEST = utf8("{\"schema_version\":\"demo_request_v1\",\"text\":\"hi\"}");

  /** The JSON prefix of the exactly-1,000,000-byte stdout of {@link #rows()}. */
  static final String BIG_PREFIX = "{\"ok\":true,\"pad\":\"";

  @TempDir Path tmp;

  /**
   * One provider behaviour and the receipt it must produce.
   *
   * @param result the expected {@code provider_result}: empty for null, else its compact JSON
   */
  record Row(
      String name,
      String body,
      int timeoutSeconds,
      RunStatus status,
      Optional<RunFailure> failure,
      OptionalInt exitCode,
      Optional<String> result) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Row row(
      String name,
      String body,
      RunStatus status,
      Optional<RunFailure> failure,
      OptionalInt exitCode,
      Optional<String> result) {
    return new Row(name, body, 10, status, failure, exitCode, result);
  }

  static Row slow(String name, String body, RunFailure failure) {
    return new Row(
        name,
        body,
        1,
        RunStatus.PROVIDER_FAILED,
        Optional.of(failure),
        OptionalInt.empty(),
        Optional.empty());
  }

  static Row notObject(String name, String body, int exit) {
    return row(
        name,
        body,
        RunStatus.INVALID_PROVIDER_OUTPUT,
        Optional.of(RunFailure.RESPONSE_NOT_JSON_OBJECT),
        OptionalInt.of(exit),
        Optional.empty());
  }

  static Stream<Row> rows() {
    Optional<RunFailure> none = Optional.empty();
    String ok = "{\"ok\":true}";
    int padding = RequestBody.MAX_BYTES - BIG_PREFIX.length() - 2;
    return Stream.of(
        // 2. timeout (the provider ignores its stdin and sleeps)
        slow("timeout", "exec sleep 30", RunFailure.TIMEOUT),
        // 2 before 3: the cap is crossed only while LoopX terminates the group after the timeout
        slow(
            "cap crossed after the timeout",
            "trap 'head -c 1000001 /dev/zero; exit 0' TERM\nsleep 30 &\nwait",
            RunFailure.TIMEOUT),
        // 3. stdout over the cap, also with exit 0 and also when it would then hang
        row(
            "stdout over the cap, exit 0",
            "head -c 1000001 /dev/zero\nexit 0",
            RunStatus.INVALID_PROVIDER_OUTPUT,
            Optional.of(RunFailure.RESPONSE_TOO_LARGE),
            OptionalInt.empty(),
            Optional.empty()),
        row(
            "stdout over the cap, then hang (the cap ends the run before the timeout)",
            "head -c 1000001 /dev/zero\nexec sleep 30",
            RunStatus.INVALID_PROVIDER_OUTPUT,
            Optional.of(RunFailure.RESPONSE_TOO_LARGE),
            OptionalInt.empty(),
            Optional.empty()),
        row(
            "stdout exactly at the cap is one object",
            "printf '%s' '"
                + BIG_PREFIX
                + "'\nhead -c "
                + padding
                + " /dev/zero | tr '\\0' a\nprintf '\"}'",
            RunStatus.SUCCEEDED,
            none,
            OptionalInt.of(0),
            Optional.empty()),
        // 4. stderr over the cap; the stdout object written before is still reported
        row(
            "stderr over the cap",
            "echo '" + ok + "'\nhead -c 1000001 /dev/zero >&2\nexit 0",
            RunStatus.PROVIDER_FAILED,
            Optional.of(RunFailure.STDERR_TOO_LARGE),
            OptionalInt.empty(),
            Optional.of(ok)),
        // 5. stdout not exactly one object
        notObject("invalid UTF-8", "printf '{\"ok\":true,\"x\":\"\\377\"}'", 0),
        notObject("not JSON", "echo hello", 0),
        notObject("an array", "echo '[1,2]'", 0),
        notObject("a string", "echo '\"ok\"'", 0),
        notObject("empty", "exit 0", 0),
        notObject("only whitespace", "printf '  \\n\\t\\n'", 0),
        notObject("trailing data", "echo '{\"ok\":true} {}'", 0),
        notObject("two objects on two lines", "echo '{\"ok\":true}'\necho '{\"ok\":true}'", 0),
        notObject("duplicate keys", "echo '{\"ok\":true,\"ok\":true}'", 0),
        notObject("integer beyond 2^53", "echo '{\"ok\":true,\"n\":9007199254740993}'", 0),
        notObject("a byte order mark", "printf '\\357\\273\\277{\"ok\":true}'", 0),
        notObject("non-zero exit with non-JSON output", "echo oops\nexit 4", 4),
        // 6. non-zero exit or "ok": false
        row(
            "non-zero exit with a JSON object",
            "echo '{\"ok\":true,\"why\":\"x\"}'\nexit 3",
            RunStatus.PROVIDER_FAILED,
            none,
            OptionalInt.of(3),
            Optional.of("{\"ok\":true,\"why\":\"x\"}")),
        row(
            "ok false with exit 0",
            "echo '{\"ok\":false,\"error\":\"nope\"}'",
            RunStatus.PROVIDER_FAILED,
            none,
            OptionalInt.of(0),
            Optional.of("{\"ok\":false,\"error\":\"nope\"}")),
        row(
            "killed by a signal LoopX did not send",
            "echo '" + ok + "'\nkill -KILL $$",
            RunStatus.PROVIDER_FAILED,
            none,
            OptionalInt.of(137),
            Optional.of(ok)),
        // 7. succeeded
        row(
            "succeeded",
            "cat > /dev/null\necho '{\"ok\":true,\"n\":1}'",
            RunStatus.SUCCEEDED,
            none,
            OptionalInt.of(0),
            Optional.of("{\"ok\":true,\"n\":1}")),
        row(
            "succeeded with whitespace around the object",
            "printf '\\n  {\"ok\":true}  \\n\\n'",
            RunStatus.SUCCEEDED,
            none,
            OptionalInt.of(0),
            Optional.of(ok)),
        row(
            "succeeded without an ok key; ok as a string is not false",
            "echo '{\"ok\":\"false\",\"n\":[]}'",
            RunStatus.SUCCEEDED,
            none,
            OptionalInt.of(0),
            Optional.of("{\"ok\":\"false\",\"n\":[]}")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void everyOutcomeRow(Row row) throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    ExtensionId id = fixture.install(Spec.of("demo-run", row.body()).timeout(row.timeoutSeconds()));

    RunReceipt receipt = fixture.loopx.run(RunRequest.of(id, REQUEST), Mode.EXECUTE);

    assertThat(receipt.outcome().status()).isEqualTo(row.status());
    assertThat(receipt.outcome().failure()).isEqualTo(row.failure());
    assertThat(receipt.outcome().exitCode()).isEqualTo(row.exitCode());
    assertThat(receipt.ok()).isEqualTo(row.status() == RunStatus.SUCCEEDED);
    assertThat(receipt.mode()).isEqualTo(Mode.EXECUTE);
    assertThat(receipt.inputSchemaVersion()).contains("demo_request_v1");
    if (row.name().startsWith("stdout exactly at the cap")) {
      ObjectNode big = receipt.outcome().providerResult().orElseThrow();
      assertThat(big.get("pad").asString())
          .hasSize(RequestBody.MAX_BYTES - BIG_PREFIX.length() - 2);
    } else {
      assertThat(receipt.outcome().providerResult().map(ObjectNode::toString))
          .isEqualTo(row.result());
    }
    ObjectNode json = receipt.toJson();
    assertThat(json.get("status").asString()).isEqualTo(row.status().wireName());
    assertThat(json.get("failure_kind").isNull()).isEqualTo(row.failure().isEmpty());
    assertThat(json.get("exit_code").isNull()).isEqualTo(row.exitCode().isEmpty());
    assertThat(fixture.startedMarker("demo-run")).exists();
  }

  /**
   * Could not start: the launcher passes the freshness check (same file, same identity) but the
   * kernel refuses the exec, because this host hands the provider an environment string beyond the
   * kernel's per-string limit (128 KiB): {@code execve} fails with E2BIG.
   */
  @Test
  void aProviderThatCannotStartIsExecutionFailed() throws IOException {
    RunFixture installer = new RunFixture(tmp);
    ExtensionId id = installer.install(Spec.of("demo-run", "echo '{\"ok\":true}'"));
    Map<String, String> hugeEnvironment = new HashMap<>(RunFixture.HOST_ENV);
    hugeEnvironment.put("LOOPX_TEST_HUGE", "x".repeat(200_000));
    Loopx host = RunFixture.loopx(installer.stateFile, hugeEnvironment);

    RunReceipt receipt = host.run(RunRequest.of(id, REQUEST), Mode.EXECUTE);

    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.PROVIDER_FAILED);
    assertThat(receipt.outcome().failure()).contains(RunFailure.EXECUTION_FAILED);
    assertThat(receipt.outcome().exitCode()).isEmpty();
    assertThat(receipt.outcome().providerResult()).isEmpty();
    assertThat(receipt.ok()).isFalse();
    assertThat(installer.startedMarker("demo-run")).doesNotExist();
    // The same extension runs fine from a host with an ordinary environment.
    assertThat(installer.loopx.run(RunRequest.of(id, REQUEST), Mode.EXECUTE).outcome().status())
        .isEqualTo(RunStatus.SUCCEEDED);
  }

  /** What reaches the launcher: the resolved launcher, the manifest's bounds and the caps. */
  @Test
  void theLaunchRequestCarriesTheManifestBoundsAndTheCaps() throws IOException {
    RunFixture installer = new RunFixture(tmp);
    ExtensionId id =
        installer.install(Spec.of("demo-run", "echo '{\"ok\":true}'").timeout(7).args("--x"));
    List<LaunchRequest> seen = new ArrayList<>();
    Loopx host =
        Loopx.builder()
            .stateFile(installer.stateFile)
            .hostEnvironment(Map.of("PATH", "/opt/bin", "HOME", "/home/h"))
            .processLauncher(
                request -> {
                  seen.add(request);
                  return LaunchResult.exited(0, utf8("{\"ok\":true}"), new byte[0], Duration.ZERO);
                })
            .build();

    RunReceipt receipt = host.run(RunRequest.of(id, utf8("{ \"b\": 1, \"a\": 2 }")), Mode.EXECUTE);

    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.SUCCEEDED);
    LaunchRequest request = seen.get(0);
    assertThat(seen).hasSize(1);
    assertThat(request.argv()).containsExactly(installer.script("demo-run").toString(), "--x");
    assertThat(request.timeout()).isEqualTo(Duration.ofSeconds(7));
    assertThat(request.stdoutLimit()).isEqualTo(1_000_000);
    assertThat(request.stderrLimit()).isEqualTo(1_000_000);
    assertThat(request.stdin()).isEqualTo(utf8("{\"b\":1,\"a\":2}"));
    assertThat(request.workingDirectory()).isEmpty();
    assertThat(request.environment())
        .containsEntry("PATH", installer.script("demo-run").getParent() + ":/opt/bin")
        .containsEntry("HOME", "/home/h")
        .containsEntry("LOOPX_EXTENSION_ID", "demo-run")
        .containsEntry("LOOPX_EXTENSION_REVISION", receipt.revision().value())
        .hasSize(4);
    // A preview never reaches the launcher.
    host.run(RunRequest.of(id, utf8("{}")), Mode.PREVIEW);
    assertThat(seen).hasSize(1);
  }

  /** The seed's named test: a timeout kills the whole process group, grandchildren included. */
  @Test
  void aTimeoutTerminatesTheWholeProcessGroup() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    String body =
        "sh -c 'echo $$ > \"$1/grandchild.pid\"; sleep 5; : > \"$1/grandchild.marker\"' sh \"$DIR\""
            + " &\n"
            + "while [ ! -s \"$DIR/grandchild.pid\" ]; do sleep 0.01; done\n"
            + "exec sleep 30";
    ExtensionId id = fixture.install(Spec.of("demo-run", body).timeout(1));

    RunReceipt receipt = fixture.loopx.run(RunRequest.of(id, REQUEST), Mode.EXECUTE);

    assertThat(receipt.outcome().failure()).contains(RunFailure.TIMEOUT);
    assertThat(receipt.outcome().exitCode()).isEmpty();
    assertThat(receipt.toJson().get("exit_code").isNull()).isTrue();
    long grandchild =
        Long.parseLong(Files.readString(fixture.dir("demo-run").resolve("grandchild.pid")).strip());
    // Gone when the run returns, so its marker can never appear.
    assertThat(RunFixture.alive(grandchild)).isFalse();
    assertThat(fixture.dir("demo-run").resolve("grandchild.marker")).doesNotExist();
  }

  @Test
  void theProviderGetsTheCompactRequestTheManifestArgsAndTheLoopxEnvironment() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    String body =
        "cat > \"$DIR/stdin\"\n"
            + "printf '%s\\n' \"$@\" > \"$DIR/argv\"\n"
            + "printf '%s\\n' \"$LOOPX_EXTENSION_ID\" \"$LOOPX_EXTENSION_REVISION\" \"$PATH\""
            + " \"$(pwd)\" > \"$DIR/env\"\n"
            + "echo '{\"ok\":true}'";
    ExtensionId id = fixture.install(Spec.of("demo-run", body).args("--mode", "two words", "*"));
    byte[] spaced =
        utf8("\n {\"z\" : 1,\n \"a\" : [1, 2.50, {\"y\": null, \"b\": \"é\"}], \"m\": 1e400 }\n");

    RunReceipt receipt = fixture.loopx.run(RunRequest.of(id, spaced), Mode.EXECUTE);

    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.SUCCEEDED);
    Path dir = fixture.dir("demo-run");
    assertThat(Files.readString(dir.resolve("stdin"), StandardCharsets.UTF_8))
        .isEqualTo("{\"z\":1,\"a\":[1,2.50,{\"y\":null,\"b\":\"é\"}],\"m\":1E+400}");
    assertThat(Files.readAllLines(dir.resolve("argv"), StandardCharsets.UTF_8))
        .containsExactly("--mode", "two words", "*");
    String revision = fixture.loopx.state().get(id).orElseThrow().activeRevision().value();
    assertThat(Files.readAllLines(dir.resolve("env"), StandardCharsets.UTF_8))
        .containsExactly(
            "demo-run",
            revision,
            fixture.script("demo-run").getParent() + ":/usr/bin:/bin",
            Path.of("").toAbsolutePath().toString());
    assertThat(receipt.revision().value()).isEqualTo(revision);
    assertThat(receipt.providerVersion()).isEqualTo("1.0.0");
    assertThat(receipt.protocol().value()).isEqualTo(RunFixture.PROTOCOL);
    assertThat(receipt.inputSchemaVersion()).isEmpty();
    assertThat(receipt.containment()).isEqualTo(OsProcessLauncher.create().containment());
    assertThat(receipt.toJson().get("containment").asString())
        .isEqualTo(OsProcessLauncher.create().containment().orElseThrow().wireName());
  }

  @Test
  void aPreviewStartsNothingAndWritesNothing() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    ExtensionId id = fixture.install(Spec.of("demo-run", "echo '{\"ok\":true}'"));
    byte[] state = Files.readAllBytes(fixture.stateFile);

    RunReceipt receipt = fixture.loopx.run(RunRequest.of(id, REQUEST), Mode.PREVIEW);

    assertThat(fixture.startedMarker("demo-run")).doesNotExist();
    assertThat(Files.readAllBytes(fixture.stateFile)).isEqualTo(state);
    assertThat(receipt.ok()).isTrue();
    assertThat(receipt.mode()).isEqualTo(Mode.PREVIEW);
    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.READY);
    assertThat(receipt.inputSchemaVersion()).contains("demo_request_v1");
    assertThat(receipt.toJson().toString())
        .isEqualTo(
            "{\"ok\":true,\"schema_version\":\"loopx_extension_run_receipt_v0\","
                + "\"operation\":\"run\",\"extension_id\":\"demo-run\","
                + "\"provider_version\":\"1.0.0\",\"revision\":\""
                + receipt.revision().value()
                + "\",\"protocol\":\"demo_run_v0\",\"dry_run\":true,\"executed\":false,"
                + "\"status\":\"ready\",\"failure_kind\":null,\"exit_code\":null,"
                + "\"provider_result\":null,\"stderr_tail\":null,"
                + "\"input_schema_version\":\"demo_request_v1\","
                + "\"containment\":null,\"memory_limit_bytes\":null}");
  }

  @Test
  void aRunLeavesTheStateByteIdenticalAndTheProviderGroupGone() throws IOException {
    RunFixture fixture = new RunFixture(tmp);
    String body =
        "sh -c 'echo $$ > \"$1/left.pid\"; exec sleep 30' sh \"$DIR\" &\n"
            + "while [ ! -s \"$DIR/left.pid\" ]; do sleep 0.01; done\n"
            + "echo '{\"ok\":true}'";
    ExtensionId id = fixture.install(Spec.of("demo-run", body));
    byte[] state = Files.readAllBytes(fixture.stateFile);

    RunReceipt receipt = fixture.loopx.run(RunRequest.of(id, REQUEST), Mode.EXECUTE);

    assertThat(receipt.outcome().status()).isEqualTo(RunStatus.SUCCEEDED);
    long leftover =
        Long.parseLong(Files.readString(fixture.dir("demo-run").resolve("left.pid")).strip());
    assertThat(RunFixture.alive(leftover)).isFalse();
    assertThat(Files.readAllBytes(fixture.stateFile)).isEqualTo(state);
  }
}
