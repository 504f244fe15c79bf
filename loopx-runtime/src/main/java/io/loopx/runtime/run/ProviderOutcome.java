package io.loopx.runtime.run;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a provider did with one request, classified by docs/contract/run.md's first-match list: the
 * status, the failure kind, the provider's own exit code, its result object and the tail of its
 * stderr. Shared by managed runs and capability dispatch. Immutable (the result object is
 * deep-copied in and out).
 *
 * @param status the status word
 * @param failure the failure kind, where the list names one
 * @param exitCode the provider's own exit status when it exited by itself
 * @param providerResult the provider's stdout object, when stdout was exactly one JSON object
 * @param stderrTail the last at most 4,096 bytes of the provider's stderr, cut at a code point,
 *     unsafe characters but line feed and tab written as <code>&#92;uXXXX</code>; empty when it
 *     wrote nothing, for in-process providers, and when the host turned it off ({@code
 *     Loopx.Builder.providerStderrTail(false)})
 */
@API(status = API.Status.STABLE, since = "0.1")
public record ProviderOutcome(
    RunStatus status,
    Optional<RunFailure> failure,
    OptionalInt exitCode,
    Optional<ObjectNode> providerResult,
    Optional<String> stderrTail) {

  /** Rejects nulls and copies the result. */
  public ProviderOutcome {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(exitCode, "exitCode");
    providerResult = providerResult.map(ObjectNode::deepCopy);
    Objects.requireNonNull(stderrTail, "stderrTail");
  }

  /** Creates an outcome without a stderr tail. */
  public ProviderOutcome(
      RunStatus status,
      Optional<RunFailure> failure,
      OptionalInt exitCode,
      Optional<ObjectNode> providerResult) {
    this(status, failure, exitCode, providerResult, Optional.empty());
  }

  /** Returns this outcome with {@code tail} as its stderr tail. */
  public ProviderOutcome withStderrTail(Optional<String> tail) {
    return new ProviderOutcome(status, failure, exitCode, providerResult, tail);
  }

  /** Returns a copy of the result object. */
  @Override
  public Optional<ObjectNode> providerResult() {
    return providerResult.map(ObjectNode::deepCopy);
  }

  /**
   * Writes {@code status, failure_kind, exit_code, provider_result, stderr_tail} into {@code
   * receipt}.
   */
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
    receipt.put("stderr_tail", stderrTail.orElse(null));
  }
}
