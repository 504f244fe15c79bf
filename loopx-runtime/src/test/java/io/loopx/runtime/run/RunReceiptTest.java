package io.loopx.runtime.run;

import static io.loopx.runtime.run.RunFixture.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.api.ApiRange;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.ProtocolId;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.LaunchTarget;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.outcome.ProviderOutcomeRecord;
import io.loopx.runtime.internal.run.ProviderOutcomes;
import io.loopx.runtime.internal.run.RequestBody;
import io.loopx.runtime.internal.run.RunReceiptRecord;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * The classification of docs/contract/run.md as a pure function of a {@link LaunchResult} (what any
 * {@link io.loopx.runtime.spi.ProcessLauncher}, including a fake one, reports), and the receipt's
 * JSON.
 */
class RunReceiptTest {
  private static final Optional<Containment> CGROUP = Optional.of(Containment.CGROUP_V1);
  static final ExtensionManifest MANIFEST =
      new ExtensionManifest(
          ExtensionId.of("demo-run"),
          "2.3.4",
          ApiRange.parse(">=1,<2"),
          List.of(),
          Optional.of(
              new RuntimeSpec(
                  ProtocolId.of("demo_run_v0"),
                  new LaunchTarget.Executable("bin/provider"),
                  List.of(),
                  List.of("--doctor"),
                  List.of(),
                  30)),
          List.of(),
          List.of(),
          List.of());
  static final RequestBody REQUEST = RequestBody.parse(utf8("{\"schema_version\":\"in_v2\"}"));
  static final Duration TOOK = Duration.ofMillis(5);
  static final byte[] NONE = new byte[0];
  static final byte[] OK = utf8("{\"ok\":true}");

  record Case(
      String name,
      LaunchResult result,
      RunStatus status,
      Optional<RunFailure> failure,
      OptionalInt exitCode,
      boolean hasResult) {
    @Override
    public String toString() {
      return name;
    }
  }

  static LaunchResult exited(int code, String stdout) {
    return LaunchResult.exited(code, utf8(stdout), NONE, TOOK);
  }

  static Case failing(String name, LaunchResult r, RunStatus s, RunFailure f, boolean result) {
    return new Case(name, r, s, Optional.of(f), OptionalInt.empty(), result);
  }

  static Case exit(String name, LaunchResult r, RunStatus s, boolean result) {
    Optional<RunFailure> failure =
        s == RunStatus.INVALID_PROVIDER_OUTPUT
            ? Optional.of(RunFailure.RESPONSE_NOT_JSON_OBJECT)
            : Optional.empty();
    return new Case(name, r, s, failure, r.exitCode(), result);
  }

  static Stream<Case> cases() {
    byte[] big = new byte[1_000_001];
    System.arraycopy(OK, 0, big, 0, OK.length);
    java.util.Arrays.fill(big, OK.length, big.length, (byte) ' ');
    List<Case> cases = new ArrayList<>();
    cases.add(
        failing(
            "not started",
            LaunchResult.notStarted("no such file", TOOK),
            RunStatus.PROVIDER_FAILED,
            RunFailure.EXECUTION_FAILED,
            false));
    cases.add(
        failing(
            "timed out with an object on stdout",
            LaunchResult.stopped(LaunchOutcome.TIMED_OUT, OK, NONE, TOOK),
            RunStatus.PROVIDER_FAILED,
            RunFailure.TIMEOUT,
            true));
    cases.add(
        failing(
            "timed out while both streams were over their caps",
            LaunchResult.stopped(LaunchOutcome.TIMED_OUT, big, big, TOOK),
            RunStatus.PROVIDER_FAILED,
            RunFailure.TIMEOUT,
            false));
    cases.add(
        failing(
            "stdout over the cap (its first bytes would parse: still no result)",
            LaunchResult.stopped(LaunchOutcome.STDOUT_OVER_LIMIT, big, NONE, TOOK),
            RunStatus.INVALID_PROVIDER_OUTPUT,
            RunFailure.RESPONSE_TOO_LARGE,
            false));
    cases.add(
        failing(
            "stderr over the cap",
            LaunchResult.stopped(LaunchOutcome.STDERR_OVER_LIMIT, OK, big, TOOK),
            RunStatus.PROVIDER_FAILED,
            RunFailure.STDERR_TOO_LARGE,
            true));
    cases.add(
        exit(
            "invalid UTF-8",
            LaunchResult.exited(0, new byte[] {'{', (byte) 0x80, '}'}, NONE, TOOK),
            RunStatus.INVALID_PROVIDER_OUTPUT,
            false));
    cases.add(exit("not JSON", exited(0, "nope"), RunStatus.INVALID_PROVIDER_OUTPUT, false));
    cases.add(exit("array", exited(0, "[{}]"), RunStatus.INVALID_PROVIDER_OUTPUT, false));
    cases.add(exit("empty", exited(0, ""), RunStatus.INVALID_PROVIDER_OUTPUT, false));
    cases.add(exit("trailing data", exited(0, "{}{}"), RunStatus.INVALID_PROVIDER_OUTPUT, false));
    cases.add(
        exit("non-zero and not JSON", exited(2, "x"), RunStatus.INVALID_PROVIDER_OUTPUT, false));
    cases.add(
        exit(
            "non-zero with an object",
            exited(2, "{\"ok\":true}"),
            RunStatus.PROVIDER_FAILED,
            true));
    cases.add(
        exit("killed by a foreign signal", exited(143, "{}"), RunStatus.PROVIDER_FAILED, true));
    cases.add(exit("ok false", exited(0, " {\"ok\":false} "), RunStatus.PROVIDER_FAILED, true));
    cases.add(exit("ok null", exited(0, "{\"ok\":null}"), RunStatus.SUCCEEDED, true));
    cases.add(exit("ok 0", exited(0, "{\"ok\":0}"), RunStatus.SUCCEEDED, true));
    cases.add(exit("no ok key", exited(0, "{}"), RunStatus.SUCCEEDED, true));
    cases.add(exit("ok true", exited(0, "\n{\"ok\":true}\n"), RunStatus.SUCCEEDED, true));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void classifiesFirstMatchWins(Case c) {
    RunReceipt receipt = ProviderOutcomes.runExecuted(MANIFEST, REQUEST, c.result(), CGROUP);

    assertThat(receipt.outcome().status()).isEqualTo(c.status());
    assertThat(receipt.outcome().failure()).isEqualTo(c.failure());
    assertThat(receipt.outcome().exitCode()).isEqualTo(c.exitCode());
    assertThat(receipt.outcome().providerResult().isPresent()).isEqualTo(c.hasResult());
    assertThat(receipt.ok()).isEqualTo(c.status() == RunStatus.SUCCEEDED);
    assertThat(receipt.mode()).isEqualTo(Mode.EXECUTE);
    assertThat(receipt.inputSchemaVersion()).contains("in_v2");
  }

  @Test
  void everyKeyIsAlwaysPresentInTheDocumentedOrder() {
    List<String> keys =
        List.of(
            "ok",
            "schema_version",
            "operation",
            "extension_id",
            "provider_version",
            "revision",
            "protocol",
            "dry_run",
            "executed",
            "status",
            "failure_kind",
            "exit_code",
            "provider_result",
            "stderr_tail",
            "input_schema_version",
            "containment",
            "memory_limit_bytes");
    List<RunReceipt> receipts =
        List.of(
            ProviderOutcomes.runPreview(MANIFEST, RequestBody.parse(utf8("{}"))),
            ProviderOutcomes.runExecuted(
                MANIFEST, REQUEST, LaunchResult.notStarted("x", TOOK), CGROUP),
            ProviderOutcomes.runExecuted(
                MANIFEST, REQUEST, exited(0, "{\"ok\":true,\"n\":[1]}"), CGROUP));
    for (RunReceipt receipt : receipts) {
      assertThat(List.copyOf(receipt.toJson().propertyNames())).isEqualTo(keys);
    }
    ObjectNode success = receipts.get(2).toJson();
    assertThat(success.toString())
        .isEqualTo(
            "{\"ok\":true,\"schema_version\":\"loopx_extension_run_receipt_v0\","
                + "\"operation\":\"run\",\"extension_id\":\"demo-run\","
                + "\"provider_version\":\"2.3.4\",\"revision\":\""
                + MANIFEST.revision().value()
                + "\",\"protocol\":\"demo_run_v0\",\"dry_run\":false,\"executed\":true,"
                + "\"status\":\"succeeded\",\"failure_kind\":null,\"exit_code\":0,"
                + "\"provider_result\":{\"ok\":true,\"n\":[1]},\"stderr_tail\":null,"
                + "\"input_schema_version\":\"in_v2\","
                + "\"containment\":\"cgroup_v1\",\"memory_limit_bytes\":null}");
    ObjectNode notStarted = receipts.get(1).toJson();
    assertThat(notStarted.get("ok").booleanValue()).isFalse();
    assertThat(notStarted.get("failure_kind").asString()).isEqualTo("execution_failed");
    assertThat(notStarted.get("exit_code").isNull()).isTrue();
    assertThat(notStarted.get("provider_result").isNull()).isTrue();
    assertThat(receipts.get(0).toJson().get("input_schema_version").isNull()).isTrue();
    assertThat(receipts.get(0).toJson().get("containment").isNull()).isTrue();
    assertThat(notStarted.get("containment").asString()).isEqualTo("cgroup_v1");
    ObjectNode limited =
        ProviderOutcomes.runExecuted(
                MANIFEST,
                REQUEST,
                ProviderOutcomes.classify(
                    LaunchResult.stopped(
                        LaunchOutcome.MEMORY_LIMIT, new byte[0], new byte[0], TOOK)),
                CGROUP,
                java.util.OptionalLong.of(268_435_456L))
            .toJson();
    assertThat(List.copyOf(limited.propertyNames())).isEqualTo(keys);
    assertThat(limited.get("status").asString()).isEqualTo("provider_failed");
    assertThat(limited.get("failure_kind").asString()).isEqualTo("memory_limit");
    assertThat(limited.get("exit_code").isNull()).isTrue();
    assertThat(limited.get("memory_limit_bytes").longValue()).isEqualTo(268_435_456L);
  }

  @Test
  void theProviderResultCannotBeChangedThroughTheReceipt() {
    RunReceipt receipt =
        ProviderOutcomes.runExecuted(MANIFEST, REQUEST, exited(0, "{\"n\":1}"), CGROUP);
    receipt.outcome().providerResult().orElseThrow().put("n", 2);
    ((ObjectNode) receipt.toJson().get("provider_result")).put("n", 3);

    assertThat(receipt.outcome().providerResult().orElseThrow().get("n").asInt()).isEqualTo(1);
  }

  @Test
  void inconsistentReceiptsAreRejected() {
    ProviderOutcome ready =
        new ProviderOutcomeRecord(
            RunStatus.READY, Optional.empty(), OptionalInt.empty(), Optional.empty());
    ProviderOutcome succeeded =
        new ProviderOutcomeRecord(
            RunStatus.SUCCEEDED, Optional.empty(), OptionalInt.of(0), Optional.empty());
    ProviderOutcome readyWithExitCode =
        new ProviderOutcomeRecord(
            RunStatus.READY, Optional.empty(), OptionalInt.of(0), Optional.empty());
    // a preview that claims a status other than ready
    assertThatThrownBy(() -> receipt(true, succeeded)).isInstanceOf(InvalidValueException.class);
    // an executed run that claims ready
    assertThatThrownBy(() -> receipt(false, ready)).isInstanceOf(InvalidValueException.class);
    // a preview that carries an exit code
    assertThatThrownBy(() -> receipt(true, readyWithExitCode))
        .isInstanceOf(InvalidValueException.class);
    // a preview that claims a containment
    assertThatThrownBy(() -> receipt(true, ready, CGROUP))
        .isInstanceOf(InvalidValueException.class);
    assertThat(receipt(true, ready).mode()).isEqualTo(Mode.PREVIEW);
    assertThat(receipt(false, succeeded).mode()).isEqualTo(Mode.EXECUTE);
  }

  private static RunReceipt receipt(boolean dryRun, ProviderOutcome outcome) {
    return receipt(dryRun, outcome, dryRun ? Optional.empty() : CGROUP);
  }

  private static RunReceipt receipt(
      boolean dryRun, ProviderOutcome outcome, Optional<Containment> containment) {
    return new RunReceiptRecord(
        MANIFEST.id(),
        "1",
        MANIFEST.revision(),
        ProtocolId.of("demo_run_v0"),
        dryRun ? Mode.PREVIEW : Mode.EXECUTE,
        outcome,
        Optional.empty(),
        containment);
  }

  @Test
  void wireNamesAreSnakeCase() {
    assertThat(Stream.of(RunStatus.values()).map(RunStatus::wireName))
        .containsExactly("ready", "succeeded", "provider_failed", "invalid_provider_output");
    assertThat(Stream.of(RunFailure.values()).map(RunFailure::wireName))
        .containsExactly(
            "execution_failed",
            "timeout",
            "response_too_large",
            "stderr_too_large",
            "response_not_json_object",
            "entrypoint_changed_during_run",
            "worker_terminated",
            "worker_handshake_failed",
            "cancelled",
            "memory_limit");
  }
}
