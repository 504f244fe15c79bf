package io.loopx.runtime.run;

import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.process.LaunchOutcome;
import io.loopx.runtime.process.LaunchResult;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a provider did with one request, classified by SPEC §7's first-match list: the status, the
 * failure kind, the provider's own exit code and its result object. Shared by managed runs and
 * capability dispatch. Immutable (the result object is deep-copied in and out).
 *
 * @param status the status word
 * @param failure the failure kind, where the list names one
 * @param exitCode the provider's own exit status when it exited by itself
 * @param providerResult the provider's stdout object, when stdout was exactly one JSON object
 */
public record ProviderOutcome(
    RunStatus status,
    Optional<RunFailure> failure,
    OptionalInt exitCode,
    Optional<ObjectNode> providerResult) {

  /** Rejects nulls and copies the result. */
  public ProviderOutcome {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(exitCode, "exitCode");
    providerResult = providerResult.map(ObjectNode::deepCopy);
  }

  /** The outcome of a preview: nothing ran. */
  public static ProviderOutcome preview() {
    return new ProviderOutcome(
        RunStatus.READY, Optional.empty(), OptionalInt.empty(), Optional.empty());
  }

  /**
   * Classifies a subprocess launch: could not start → timeout → stdout over the cap → stderr over
   * the cap → stdout not exactly one JSON object → non-zero exit or {@code "ok": false} →
   * succeeded.
   */
  public static ProviderOutcome classify(LaunchResult result) {
    byte[] stdout = result.stdout();
    // Stdout that crossed the cap was cut: its first bytes are never a result, even after a
    // timeout.
    Optional<ObjectNode> object =
        result.outcome() == LaunchOutcome.STDOUT_OVER_LIMIT
                || stdout.length > RunReceipt.OUTPUT_LIMIT
            ? Optional.empty()
            : oneObject(stdout);
    switch (result.outcome()) {
      case NOT_STARTED:
        return failed(RunStatus.PROVIDER_FAILED, RunFailure.EXECUTION_FAILED, object);
      case TIMED_OUT:
        return failed(RunStatus.PROVIDER_FAILED, RunFailure.TIMEOUT, object);
      case STDOUT_OVER_LIMIT:
        return failed(RunStatus.INVALID_PROVIDER_OUTPUT, RunFailure.RESPONSE_TOO_LARGE, object);
      case STDERR_OVER_LIMIT:
        return failed(RunStatus.PROVIDER_FAILED, RunFailure.STDERR_TOO_LARGE, object);
      case EXITED:
        if (object.isEmpty()) {
          return new ProviderOutcome(
              RunStatus.INVALID_PROVIDER_OUTPUT,
              Optional.of(RunFailure.RESPONSE_NOT_JSON_OBJECT),
              result.exitCode(),
              object);
        }
        boolean failedRun = result.exitCode().getAsInt() != 0 || saysNotOk(object.get());
        return new ProviderOutcome(
            failedRun ? RunStatus.PROVIDER_FAILED : RunStatus.SUCCEEDED,
            Optional.empty(),
            result.exitCode(),
            object);
    }
    throw new IllegalStateException("unknown launch outcome " + result.outcome());
  }

  /**
   * Classifies the response of a trusted in-process provider: {@code "ok": false} is {@code
   * provider_failed}; there is never an exit code.
   */
  public static ProviderOutcome inProcess(ObjectNode response) {
    return new ProviderOutcome(
        saysNotOk(response) ? RunStatus.PROVIDER_FAILED : RunStatus.SUCCEEDED,
        Optional.empty(),
        OptionalInt.empty(),
        Optional.of(response));
  }

  /** The outcome of an in-process provider that threw: {@code provider_failed}, no result. */
  public static ProviderOutcome inProcessFailure() {
    return new ProviderOutcome(
        RunStatus.PROVIDER_FAILED, Optional.empty(), OptionalInt.empty(), Optional.empty());
  }

  /** Returns a copy of the result object. */
  @Override
  public Optional<ObjectNode> providerResult() {
    return providerResult.map(ObjectNode::deepCopy);
  }

  /** Writes {@code status, failure_kind, exit_code, provider_result} into {@code receipt}. */
  public void writeTo(ObjectNode receipt) {
    receipt.put("status", status.wireName());
    if (failure.isPresent()) {
      receipt.put("failure_kind", failure.get().wireName());
    } else {
      receipt.putNull("failure_kind");
    }
    if (exitCode.isPresent()) {
      receipt.put("exit_code", exitCode.getAsInt());
    } else {
      receipt.putNull("exit_code");
    }
    if (providerResult.isPresent()) {
      receipt.set("provider_result", providerResult.get().deepCopy());
    } else {
      receipt.putNull("provider_result");
    }
  }

  private static ProviderOutcome failed(
      RunStatus status, RunFailure failure, Optional<ObjectNode> object) {
    return new ProviderOutcome(status, Optional.of(failure), OptionalInt.empty(), object);
  }

  private static Optional<ObjectNode> oneObject(byte[] stdout) {
    try {
      return Optional.of(StrictJson.parseObject(stdout));
    } catch (InvalidJsonException e) {
      return Optional.empty();
    }
  }

  private static boolean saysNotOk(ObjectNode result) {
    JsonNode ok = result.get("ok");
    return ok != null && ok.isBoolean() && !ok.booleanValue();
  }
}
