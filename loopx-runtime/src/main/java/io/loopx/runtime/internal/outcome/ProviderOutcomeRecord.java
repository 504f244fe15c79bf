package io.loopx.runtime.internal.outcome;

import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunStatus;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link ProviderOutcome} LoopX builds (the result object is deep-copied in and out).
 *
 * @param status the status word
 * @param failure the failure kind
 * @param exitCode the provider's own exit status
 * @param providerResult the provider's stdout object
 * @param stderrTail the tail of the provider's stderr
 */
@API(status = API.Status.INTERNAL, since = "1.0")
public record ProviderOutcomeRecord(
    RunStatus status,
    Optional<RunFailure> failure,
    OptionalInt exitCode,
    Optional<ObjectNode> providerResult,
    Optional<String> stderrTail)
    implements ProviderOutcome {

  /** Rejects nulls and copies the result. */
  public ProviderOutcomeRecord {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(exitCode, "exitCode");
    providerResult = providerResult.map(ObjectNode::deepCopy);
    Objects.requireNonNull(stderrTail, "stderrTail");
  }

  /** Creates an outcome without a stderr tail. */
  public ProviderOutcomeRecord(
      RunStatus status,
      Optional<RunFailure> failure,
      OptionalInt exitCode,
      Optional<ObjectNode> providerResult) {
    this(status, failure, exitCode, providerResult, Optional.empty());
  }

  /** Returns this outcome with {@code tail} as its stderr tail. */
  public ProviderOutcomeRecord withStderrTail(Optional<String> tail) {
    return new ProviderOutcomeRecord(status, failure, exitCode, providerResult, tail);
  }

  /** Returns a copy of the result object. */
  @Override
  public Optional<ObjectNode> providerResult() {
    return providerResult.map(ObjectNode::deepCopy);
  }

  /**
   * Writes {@code outcome}'s {@code status, failure_kind, exit_code, provider_result, stderr_tail}
   * into {@code receipt}.
   */
  public static void writeTo(ProviderOutcome outcome, ObjectNode receipt) {
    receipt.put("status", outcome.status().wireName());
    Optional<RunFailure> failure = outcome.failure();
    if (failure.isPresent()) {
      receipt.put("failure_kind", failure.get().wireName());
    } else {
      receipt.putNull("failure_kind");
    }
    OptionalInt exitCode = outcome.exitCode();
    if (exitCode.isPresent()) {
      receipt.put("exit_code", exitCode.getAsInt());
    } else {
      receipt.putNull("exit_code");
    }
    Optional<ObjectNode> providerResult = outcome.providerResult();
    if (providerResult.isPresent()) {
      receipt.set("provider_result", providerResult.get());
    } else {
      receipt.putNull("provider_result");
    }
    receipt.put("stderr_tail", outcome.stderrTail().orElse(null));
  }
}
