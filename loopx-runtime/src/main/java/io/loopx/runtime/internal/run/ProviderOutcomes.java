package io.loopx.runtime.internal.run;

import io.loopx.api.InvalidValueException;
import io.loopx.api.json.InvalidJsonException;
import io.loopx.api.json.StrictJson;
import io.loopx.api.manifest.ExtensionManifest;
import io.loopx.api.manifest.RuntimeSpec;
import io.loopx.runtime.Mode;
import io.loopx.runtime.internal.outcome.ProviderOutcomeRecord;
import io.loopx.runtime.internal.process.StderrTail;
import io.loopx.runtime.run.ProviderOutcome;
import io.loopx.runtime.run.RunFailure;
import io.loopx.runtime.run.RunReceipt;
import io.loopx.runtime.run.RunStatus;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.Isolation;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Classifies what a provider did (docs/contract/run.md) into a {@link ProviderOutcome}, and builds
 * the run receipts of the standalone run. Pure.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ProviderOutcomes {
  private ProviderOutcomes() {}

  /** The outcome of a preview: nothing ran. */
  public static ProviderOutcome preview() {
    return new ProviderOutcomeRecord(
        RunStatus.READY, Optional.empty(), OptionalInt.empty(), Optional.empty());
  }

  /**
   * Classifies a subprocess launch: could not start → another file executed ({@code
   * entrypoint_changed_during_run}) → cancelled → killed for memory ({@code memory_limit}) →
   * timeout → stdout over the cap → stderr over the cap → stdout not exactly one JSON object →
   * non-zero exit or {@code "ok": false} → succeeded. The outcome carries the {@linkplain
   * StderrTail tail} of the captured stderr.
   */
  public static ProviderOutcome classify(LaunchResult result) {
    return status(result).withStderrTail(StderrTail.of(result.stderr()));
  }

  private static ProviderOutcomeRecord status(LaunchResult result) {
    byte[] stdout = result.stdout();
    // Stdout that crossed the cap was cut: its first bytes are never a result, even after a
    // timeout.
    Optional<ObjectNode> object =
        result.outcome() == LaunchOutcome.STDOUT_OVER_LIMIT
                || stdout.length > LaunchRequest.DEFAULT_OUTPUT_LIMIT
            ? Optional.empty()
            : oneObject(stdout);
    switch (result.outcome()) {
      case NOT_STARTED:
        return failed(RunStatus.PROVIDER_FAILED, RunFailure.EXECUTION_FAILED, object);
      case EXECUTABLE_MISMATCH:
        return ChangedDuringRun.outcome();
      case CANCELLED:
        return failed(RunStatus.PROVIDER_FAILED, RunFailure.CANCELLED, object);
      case MEMORY_LIMIT:
        return failed(RunStatus.PROVIDER_FAILED, RunFailure.MEMORY_LIMIT, object);
      case TIMED_OUT:
        return failed(RunStatus.PROVIDER_FAILED, RunFailure.TIMEOUT, object);
      case STDOUT_OVER_LIMIT:
        return failed(RunStatus.INVALID_PROVIDER_OUTPUT, RunFailure.RESPONSE_TOO_LARGE, object);
      case STDERR_OVER_LIMIT:
        return failed(RunStatus.PROVIDER_FAILED, RunFailure.STDERR_TOO_LARGE, object);
      case EXITED:
        if (object.isEmpty()) {
          return new ProviderOutcomeRecord(
              RunStatus.INVALID_PROVIDER_OUTPUT,
              Optional.of(RunFailure.RESPONSE_NOT_JSON_OBJECT),
              result.exitCode(),
              object);
        }
        boolean failedRun = result.exitCode().getAsInt() != 0 || saysNotOk(object.get());
        return new ProviderOutcomeRecord(
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
    return new ProviderOutcomeRecord(
        saysNotOk(response) ? RunStatus.PROVIDER_FAILED : RunStatus.SUCCEEDED,
        Optional.empty(),
        OptionalInt.empty(),
        Optional.of(response));
  }

  /** The outcome of an in-process provider that threw: {@code provider_failed}, no result. */
  public static ProviderOutcome inProcessFailure() {
    return new ProviderOutcomeRecord(
        RunStatus.PROVIDER_FAILED, Optional.empty(), OptionalInt.empty(), Optional.empty());
  }

  /**
   * Returns the receipt of a preview: every precondition holds, nothing was started.
   *
   * @throws InvalidValueException when {@code manifest} has no runtime
   */
  public static RunReceipt runPreview(ExtensionManifest manifest, RequestBody request) {
    return new RunReceiptRecord(
        manifest.id(),
        manifest.version(),
        manifest.revision(),
        runtime(manifest).protocol(),
        Mode.PREVIEW,
        new ProviderOutcomeRecord(
            RunStatus.READY, Optional.empty(), OptionalInt.empty(), Optional.empty()),
        request.schemaVersion(),
        Optional.empty());
  }

  /**
   * Classifies what the provider of {@code manifest} did with {@code request} (see the class
   * documentation for the order); {@code containment} is the launcher's.
   *
   * @throws InvalidValueException when {@code manifest} has no runtime
   */
  public static RunReceipt runExecuted(
      ExtensionManifest manifest,
      RequestBody request,
      LaunchResult result,
      Optional<Containment> containment) {
    return runExecuted(manifest, request, classify(result), containment);
  }

  /**
   * Returns the receipt of an executed run of {@code manifest} whose outcome is {@code outcome}.
   *
   * @throws InvalidValueException when {@code manifest} has no runtime
   */
  public static RunReceipt runExecuted(
      ExtensionManifest manifest,
      RequestBody request,
      ProviderOutcome outcome,
      Optional<Containment> containment) {
    return runExecuted(manifest, request, outcome, containment, OptionalLong.empty());
  }

  /**
   * Returns the receipt of an executed run as above, with {@code memoryLimit} as its {@code
   * memory_limit_bytes}.
   *
   * @throws InvalidValueException when {@code manifest} has no runtime
   */
  public static RunReceipt runExecuted(
      ExtensionManifest manifest,
      RequestBody request,
      ProviderOutcome outcome,
      Optional<Containment> containment,
      OptionalLong memoryLimit) {
    return runExecuted(manifest, request, outcome, containment, memoryLimit, Optional.empty());
  }

  /**
   * Returns the receipt of an executed run as above, with {@code isolation} as its {@code
   * isolation} (empty: the field is absent).
   *
   * @throws InvalidValueException when {@code manifest} has no runtime
   */
  public static RunReceipt runExecuted(
      ExtensionManifest manifest,
      RequestBody request,
      ProviderOutcome outcome,
      Optional<Containment> containment,
      OptionalLong memoryLimit,
      Optional<Isolation> isolation) {
    RuntimeSpec runtime = runtime(manifest);
    return new RunReceiptRecord(
        manifest.id(),
        manifest.version(),
        manifest.revision(),
        runtime.protocol(),
        Mode.EXECUTE,
        outcome,
        request.schemaVersion(),
        containment,
        memoryLimit,
        isolation);
  }

  private static ProviderOutcomeRecord failed(
      RunStatus status, RunFailure failure, Optional<ObjectNode> object) {
    return new ProviderOutcomeRecord(status, Optional.of(failure), OptionalInt.empty(), object);
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

  private static RuntimeSpec runtime(ExtensionManifest manifest) {
    return manifest
        .runtime()
        .orElseThrow(
            () ->
                new InvalidValueException(
                    "run receipt manifest", manifest.id().value(), "has no [runtime]"));
  }
}
