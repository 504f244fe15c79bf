package io.loopx.runtime.run;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.internal.call.CallInput;
import java.io.InputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What {@link io.loopx.runtime.Loopx#run(RunRequest, io.loopx.runtime.Mode)} runs: a standalone
 * extension, its request (bytes, or a stream read when the call starts: at most 1,000,000 bytes,
 * one JSON object, docs/contract/run.md), and two options: a deadline
 * (docs/contract/worker.md#deadline) and one-shot (start a fresh process even when the manifest
 * declares {@code [runtime.worker]}). Immutable but for the stream, which a call consumes.
 *
 * <pre>{@code
 * RunReceipt r = loopx.run(RunRequest.of(id, json).withDeadline(Duration.ofSeconds(2)), Mode.EXECUTE);
 * }</pre>
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class RunRequest {
  static {
    CallInput.export(RunRequest.class, r -> r.input);
  }

  private final ExtensionId extensionId;
  private final CallInput input;

  private RunRequest(ExtensionId extensionId, CallInput input) {
    this.extensionId = Objects.requireNonNull(extensionId, "extensionId");
    this.input = input;
  }

  /** A run of {@code id} with the request given as bytes (copied). */
  public static RunRequest of(ExtensionId id, byte[] input) {
    return new RunRequest(id, CallInput.of(input));
  }

  /** A run of {@code id} with the request read from {@code input} when the call starts. */
  public static RunRequest of(ExtensionId id, InputStream input) {
    return new RunRequest(id, CallInput.of(input));
  }

  /**
   * Returns this request ended by {@code deadline}, counted from the call, when it is shorter than
   * the manifest's {@code timeout_seconds}: the provider then ends {@code provider_failed} / {@code
   * timeout} with its tree killed (a worker: retired).
   *
   * @throws io.loopx.api.InvalidValueException when {@code deadline} is not positive
   */
  public RunRequest withDeadline(Duration deadline) {
    return new RunRequest(extensionId, input.withDeadline(deadline));
  }

  /** Returns this request run one-shot: no warm worker, even where the manifest declares one. */
  public RunRequest oneShot() {
    return new RunRequest(extensionId, input.oneShot());
  }

  /** Returns the extension to run. */
  public ExtensionId extensionId() {
    return extensionId;
  }

  /** Returns the caller's deadline, if any. */
  public Optional<Duration> deadline() {
    return input.deadline();
  }

  /** Returns whether the call runs one-shot. */
  public boolean isOneShot() {
    return input.isOneShot();
  }
}
