package io.loopx.testkit;

import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunStatus;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Typed assertions on a managed run's {@link RunReceipt} (docs/contract/run.md): each checks the
 * accessor and the JSON key. Obtained from {@link ReceiptAssert#run()}.
 *
 * <pre>{@code
 * assertThatReceipt(run).run()
 *     .isExecuted().hasStatus(RunStatus.PROVIDER_FAILED).hasFailure(RunFailure.TIMEOUT);
 * }</pre>
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class RunReceiptAssert extends AbstractAssert<RunReceiptAssert, RunReceipt> {
  private final ObjectNode json;

  RunReceiptAssert(RunReceipt actual) {
    super(actual, RunReceiptAssert.class);
    this.json = actual.toJson();
  }

  /** Verifies the status ({@code status}). */
  public RunReceiptAssert hasStatus(RunStatus expected) {
    return expect(
        "status",
        actual.outcome().status() == expected,
        actual.outcome().status(),
        expected.wireName());
  }

  /** Verifies the failure ({@code failure_kind}). */
  public RunReceiptAssert hasFailure(RunFailure expected) {
    return expect(
        "failure_kind",
        actual.outcome().failure().equals(Optional.of(expected)),
        actual.outcome().failure(),
        expected.wireName());
  }

  /** Verifies that there is no failure ({@code failure_kind} is {@code null}). */
  public RunReceiptAssert hasNoFailure() {
    return expect(
        "failure_kind", actual.outcome().failure().isEmpty(), actual.outcome().failure(), null);
  }

  /** Verifies the provider's exit code ({@code exit_code}). */
  public RunReceiptAssert hasExitCode(int expected) {
    return expect(
        "exit_code",
        actual.outcome().exitCode().equals(OptionalInt.of(expected)),
        actual.outcome().exitCode(),
        expected);
  }

  /** Verifies that there is no exit code ({@code exit_code} is {@code null}). */
  public RunReceiptAssert hasNoExitCode() {
    return expect(
        "exit_code", actual.outcome().exitCode().isEmpty(), actual.outcome().exitCode(), null);
  }

  /** Verifies a preview: {@code dry_run} true and {@code executed} false. */
  public RunReceiptAssert isPreview() {
    boolean executed = actual.mode().executes();
    expect("dry_run", !executed, !executed, true);
    return expect("executed", !executed, executed, false);
  }

  /** Verifies an executed run: {@code dry_run} false and {@code executed} true. */
  public RunReceiptAssert isExecuted() {
    boolean executed = actual.mode().executes();
    expect("dry_run", executed, !executed, false);
    return expect("executed", executed, executed, true);
  }

  /** Verifies the parsed answer object ({@code provider_result}). */
  public RunReceiptAssert hasProviderResult(ObjectNode expected) {
    isNotNull();
    if (!actual.outcome().providerResult().equals(Optional.of(expected))
        || !expected.equals(json.get("provider_result"))) {
      failWithMessage(
          "Expected <provider_result> to be <%s> but the receipt holds <%s> in%n  %s",
          expected, actual.outcome().providerResult(), json);
    }
    return this;
  }

  /** Verifies that there is no answer object ({@code provider_result} is {@code null}). */
  public RunReceiptAssert hasNoProviderResult() {
    return expect(
        "provider_result",
        actual.outcome().providerResult().isEmpty(),
        actual.outcome().providerResult(),
        null);
  }

  private RunReceiptAssert expect(
      String key, boolean typedMatches, @Nullable Object typedActual, @Nullable Object expected) {
    isNotNull();
    WireCheck.mismatch(json, key, typedMatches, typedActual, expected)
        .ifPresent(m -> failWithMessage("%s", m));
    return this;
  }
}
