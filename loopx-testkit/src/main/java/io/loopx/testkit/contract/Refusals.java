package io.loopx.testkit.contract;

import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunStatus;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the contract kit accepts as a provider's refusal of a request: a non-zero exit of its own
 * and exactly one JSON object whose {@code ok} is {@code false}, through LoopX or launched
 * directly. Each check returns why an answer is not a proper refusal, or empty.
 */
final class Refusals {
  private Refusals() {}

  /** Returns why {@code outcome} is not a proper refusal, or empty. */
  static Optional<String> refusal(ProviderOutcome outcome) {
    if (outcome.status() != RunStatus.PROVIDER_FAILED) {
      return Optional.of("status is " + outcome.status().wireName() + ", not provider_failed");
    }
    if (outcome.exitCode().isEmpty() || outcome.exitCode().getAsInt() == 0) {
      return Optional.of("the provider did not exit by itself with a non-zero status");
    }
    if (outcome.providerResult().isEmpty()) {
      return Optional.of("stdout was not exactly one JSON object");
    }
    return okFalse(outcome.providerResult().get());
  }

  /** Returns why {@code result} is not a proper refusal, or empty. */
  static Optional<String> refusal(LaunchResult result) {
    if (result.outcome() != LaunchOutcome.EXITED) {
      return Optional.of("the provider did not exit by itself: " + result.outcome());
    }
    if (result.exitedWithZero()) {
      return Optional.of("the provider exited 0");
    }
    if (result.stdout().length > LaunchRequest.DEFAULT_OUTPUT_LIMIT) {
      return Optional.of(
          "stdout is over the " + LaunchRequest.DEFAULT_OUTPUT_LIMIT + "-byte limit");
    }
    ObjectNode object;
    try {
      object = StrictJson.parseObject(result.stdout());
    } catch (InvalidJsonException e) {
      return Optional.of("stdout is not exactly one JSON object: " + e.getMessage());
    }
    return okFalse(object);
  }

  static Optional<String> okFalse(ObjectNode object) {
    JsonNode ok = object.get("ok");
    if (ok == null || !ok.isBoolean() || ok.booleanValue()) {
      return Optional.of("the answer's `ok` is not the JSON boolean false");
    }
    return Optional.empty();
  }
}
