package io.loopx.api.manifest;

import io.loopx.api.InvalidValueException;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The {@code [runtime]} table: how the managed runtime starts a provider. The manifest fixes all of
 * it; a caller can never replace the executable, timeout, protocol or permissions.
 *
 * @param protocol the provider protocol token
 * @param launchTarget exactly one launch target
 * @param args arguments passed on every start (non-empty strings without NUL)
 * @param doctorArgs arguments appended for the side-effect-free doctor probe (empty: not
 *     configured)
 * @param requiredPermissions permissions the runtime requires (a subset of the manifest's)
 * @param timeoutSeconds the run and probe timeout, 1..120 (per request for a worker)
 * @param worker the {@code [runtime.worker]} table, when the provider can run as a warm worker
 */
@API(status = API.Status.STABLE, since = "0.1")
public record RuntimeSpec(
    ProtocolId protocol,
    LaunchTarget launchTarget,
    List<String> args,
    List<String> doctorArgs,
    List<Permission> requiredPermissions,
    int timeoutSeconds,
    @API(status = API.Status.EXPERIMENTAL, since = "0.2") Optional<WorkerSpec> worker) {
  /** The default {@code timeout_seconds}. */
  public static final int DEFAULT_TIMEOUT_SECONDS = 30;

  /** The largest allowed {@code timeout_seconds}. */
  public static final int MAX_TIMEOUT_SECONDS = 120;

  /** Validates and defensively copies. */
  public RuntimeSpec {
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(launchTarget, "launchTarget");
    args = Checks.arguments("runtime.args", args);
    doctorArgs = Checks.arguments("runtime.doctor_args", doctorArgs);
    requiredPermissions = Checks.unique("runtime.required_permissions", requiredPermissions);
    if (timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
      throw new InvalidValueException(
          "runtime.timeout_seconds", Integer.toString(timeoutSeconds), "must be 1..120");
    }
    Objects.requireNonNull(worker, "worker");
  }

  /** Creates a runtime without a {@code [runtime.worker]} table (a one-shot provider). */
  public RuntimeSpec(
      ProtocolId protocol,
      LaunchTarget launchTarget,
      List<String> args,
      List<String> doctorArgs,
      List<Permission> requiredPermissions,
      int timeoutSeconds) {
    this(
        protocol,
        launchTarget,
        args,
        doctorArgs,
        requiredPermissions,
        timeoutSeconds,
        Optional.empty());
  }

  /** Returns this runtime with {@code worker} as its {@code [runtime.worker]} table. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.2")
  public RuntimeSpec withWorker(Optional<WorkerSpec> worker) {
    return new RuntimeSpec(
        protocol, launchTarget, args, doctorArgs, requiredPermissions, timeoutSeconds, worker);
  }

  /** Returns whether a doctor probe is configured ({@code doctor_args} is not empty). */
  public boolean doctorConfigured() {
    return !doctorArgs.isEmpty();
  }
}
