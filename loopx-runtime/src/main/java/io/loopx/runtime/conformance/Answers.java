package io.loopx.runtime.conformance;

import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.internal.process.OutputPreview;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchResult;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a provider's one-shot answer must be, and how the evidence describes it (package-private):
 * exit 0 with exactly one JSON object that does not say {@code ok:false} for a request it must
 * answer, a non-zero exit with one {@code ok:false} object for one it must refuse
 * (docs/contract/run.md#provider-protocol). {@link WorkerTranscript} judges a worker's frames.
 */
final class Answers {
  private Answers() {}

  /** Why {@code r} is not exit 0 with exactly one JSON object without {@code ok:false}. */
  static Optional<String> answerProblem(LaunchResult r) {
    if (r.outcome() != LaunchOutcome.EXITED || !r.exitedWithZero()) {
      return Optional.of(describe(r));
    }
    ObjectNode answer;
    try {
      answer = StrictJson.parseObject(r.stdout());
    } catch (InvalidJsonException e) {
      return Optional.of("stdout is not exactly one JSON object: " + e.getMessage());
    }
    JsonNode ok = answer.get("ok");
    if (ok != null && ok.isBoolean() && !ok.booleanValue()) {
      return Optional.of("the answer says ok:false: " + preview(r.stdout()));
    }
    return Optional.empty();
  }

  /** Why {@code r} is not a refusal: a non-zero exit and one JSON object with {@code ok:false}. */
  static Optional<String> refusalProblem(LaunchResult r) {
    if (r.outcome() != LaunchOutcome.EXITED) {
      return Optional.of("not refused: " + describe(r));
    }
    if (r.exitedWithZero()) {
      return Optional.of("accepted (exit 0): " + preview(r.stdout()));
    }
    ObjectNode answer;
    try {
      answer = StrictJson.parseObject(r.stdout());
    } catch (InvalidJsonException e) {
      return Optional.of("stdout is not exactly one JSON object: " + e.getMessage());
    }
    JsonNode ok = answer.get("ok");
    if (ok == null || !ok.isBoolean() || ok.booleanValue()) {
      return Optional.of("the answer's `ok` is not false: " + preview(r.stdout()));
    }
    return Optional.empty();
  }

  /** The evidence of a proper refusal: its exit status and answer. */
  static String refused(LaunchResult r) {
    return "refused: exit " + r.exitCode().orElse(-1) + ", " + preview(r.stdout());
  }

  /** Why {@code bytes} are not valid UTF-8, or empty. */
  static Optional<String> utf8Problem(byte[] bytes) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return Optional.empty();
    } catch (CharacterCodingException e) {
      return Optional.of("stdout is not valid UTF-8: " + e.getMessage());
    }
  }

  /** A one-line description of a launch. */
  static String describe(LaunchResult r) {
    StringBuilder s =
        new StringBuilder(
            r.exitCode().isPresent()
                ? "exit " + r.exitCode().getAsInt()
                : r.outcome().toString().toLowerCase(Locale.ROOT).replace('_', ' '));
    r.startFailure().ifPresent(f -> s.append(" (").append(f).append(')'));
    s.append(" in ").append(r.duration().toMillis()).append(" ms, stdout: ");
    s.append(preview(r.stdout()));
    if (r.stderr().length > 0) {
      s.append(", stderr: ").append(preview(r.stderr()));
    }
    return s.toString();
  }

  /** A bounded one-line preview of a provider's output. */
  static String preview(byte[] bytes) {
    return OutputPreview.of(bytes);
  }
}
