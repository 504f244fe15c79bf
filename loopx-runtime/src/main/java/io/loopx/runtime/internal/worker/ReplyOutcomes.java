package io.loopx.runtime.internal.worker;

import io.loopx.runtime.internal.outcome.ProviderOutcomeRecord;
import io.loopx.runtime.internal.process.StderrTail;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunStatus;
import java.util.Optional;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Classifies what a worker request got (docs/contract/worker.md#frames): a response like a one-shot
 * result without an exit code ({@code "ok": false} is {@code provider_failed}), a mismatch of the
 * executed file, or a failure with its stderr tail when the host keeps it.
 */
final class ReplyOutcomes {
  private ReplyOutcomes() {}

  /** Returns the outcome of {@code reply}; {@code stderr} is the worker's tail for failures. */
  static Workers.Outcome of(Reply reply, byte[] stderr, boolean keepStderr) {
    if (reply instanceof Reply.Answered answered) {
      ObjectNode response = answered.response();
      JsonNode ok = response.get("ok");
      boolean notOk = ok != null && ok.isBoolean() && !ok.booleanValue();
      return new Workers.Outcome(
          new ProviderOutcomeRecord(
              notOk ? RunStatus.PROVIDER_FAILED : RunStatus.SUCCEEDED,
              Optional.empty(),
              OptionalInt.empty(),
              Optional.of(response)),
          false);
    }
    if (reply instanceof Reply.Mismatch) {
      return new Workers.Outcome(
          new ProviderOutcomeRecord(
              RunStatus.PROVIDER_FAILED,
              Optional.of(RunFailure.ENTRYPOINT_CHANGED_DURING_RUN),
              OptionalInt.empty(),
              Optional.empty()),
          true);
    }
    return new Workers.Outcome(failed(((Reply.Failed) reply).failure(), stderr, keepStderr), false);
  }

  /** Returns a failed outcome of {@code failure}, with {@code stderr}'s tail when kept. */
  static ProviderOutcome failed(RunFailure failure, byte @Nullable [] stderr, boolean keepStderr) {
    RunStatus status =
        failure == RunFailure.RESPONSE_TOO_LARGE
            ? RunStatus.INVALID_PROVIDER_OUTPUT
            : RunStatus.PROVIDER_FAILED;
    ProviderOutcomeRecord outcome =
        new ProviderOutcomeRecord(
            status, Optional.of(failure), OptionalInt.empty(), Optional.empty());
    return keepStderr && stderr != null ? outcome.withStderrTail(StderrTail.of(stderr)) : outcome;
  }
}
