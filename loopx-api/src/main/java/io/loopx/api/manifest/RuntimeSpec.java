package io.loopx.api.manifest;

import io.loopx.api.InvalidValueException;
import io.loopx.api.Permission;
import io.loopx.api.ProtocolId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
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
 * @param memoryMb the optional {@code memory_mb}: the most memory, in MiB ({@value
 *     #MIN_MEMORY_MB}..{@value #MAX_MEMORY_MB}), that one call or one worker process of this
 *     provider may use where the host can limit memory; the host's own limit caps it
 *     (docs/contract/run.md#memory-limit)
 * @param access the optional {@code access}: what the provider may touch beyond its package and
 *     scratch directory when the host isolates it ({@link RuntimeAccess#NONE} when absent)
 */
@API(status = API.Status.STABLE, since = "1.0")
public record RuntimeSpec(
    ProtocolId protocol,
    LaunchTarget launchTarget,
    List<String> args,
    List<String> doctorArgs,
    List<Permission> requiredPermissions,
    int timeoutSeconds,
    Optional<WorkerSpec> worker,
    @API(status = API.Status.EXPERIMENTAL, since = "1.0") OptionalInt memoryMb,
    @API(status = API.Status.EXPERIMENTAL, since = "1.0") RuntimeAccess access) {
  /** The default {@code timeout_seconds}. */
  public static final int DEFAULT_TIMEOUT_SECONDS = 30;

  /** The largest allowed {@code timeout_seconds}. */
  public static final int MAX_TIMEOUT_SECONDS = 120;

  /** The smallest allowed {@code memory_mb}. */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  public static final int MIN_MEMORY_MB = 16;

  /** The largest allowed {@code memory_mb} (64 GiB). */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  public static final int MAX_MEMORY_MB = 65_536;

  /** Validates and defensively copies. */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
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
    Objects.requireNonNull(memoryMb, "memoryMb");
    if (memoryMb.isPresent()
        && (memoryMb.getAsInt() < MIN_MEMORY_MB || memoryMb.getAsInt() > MAX_MEMORY_MB)) {
      throw new InvalidValueException(
          "runtime.memory_mb",
          Integer.toString(memoryMb.getAsInt()),
          "must be " + MIN_MEMORY_MB + ".." + MAX_MEMORY_MB);
    }
    Objects.requireNonNull(access, "access");
  }

  /** Creates a runtime without {@code access}. */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  public RuntimeSpec(
      ProtocolId protocol,
      LaunchTarget launchTarget,
      List<String> args,
      List<String> doctorArgs,
      List<Permission> requiredPermissions,
      int timeoutSeconds,
      Optional<WorkerSpec> worker,
      OptionalInt memoryMb) {
    this(
        protocol,
        launchTarget,
        args,
        doctorArgs,
        requiredPermissions,
        timeoutSeconds,
        worker,
        memoryMb,
        RuntimeAccess.NONE);
  }

  /** Creates a runtime without {@code memory_mb}. */
  public RuntimeSpec(
      ProtocolId protocol,
      LaunchTarget launchTarget,
      List<String> args,
      List<String> doctorArgs,
      List<Permission> requiredPermissions,
      int timeoutSeconds,
      Optional<WorkerSpec> worker) {
    this(
        protocol,
        launchTarget,
        args,
        doctorArgs,
        requiredPermissions,
        timeoutSeconds,
        worker,
        OptionalInt.empty(),
        RuntimeAccess.NONE);
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
        Optional.empty(),
        OptionalInt.empty(),
        RuntimeAccess.NONE);
  }

  /** Returns this runtime with {@code worker} as its {@code [runtime.worker]} table. */
  public RuntimeSpec withWorker(Optional<WorkerSpec> worker) {
    return new RuntimeSpec(
        protocol,
        launchTarget,
        args,
        doctorArgs,
        requiredPermissions,
        timeoutSeconds,
        worker,
        memoryMb,
        access);
  }

  /** Returns this runtime with {@code memoryMb} as its {@code memory_mb}. */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  public RuntimeSpec withMemoryMb(OptionalInt memoryMb) {
    return new RuntimeSpec(
        protocol,
        launchTarget,
        args,
        doctorArgs,
        requiredPermissions,
        timeoutSeconds,
        worker,
        memoryMb,
        access);
  }

  /** Returns this runtime with {@code access} as its {@code access} declaration. */
  @API(status = API.Status.EXPERIMENTAL, since = "1.0")
  public RuntimeSpec withAccess(RuntimeAccess access) {
    return new RuntimeSpec(
        protocol,
        launchTarget,
        args,
        doctorArgs,
        requiredPermissions,
        timeoutSeconds,
        worker,
        memoryMb,
        access);
  }

  /** Returns whether a doctor probe is configured ({@code doctor_args} is not empty). */
  public boolean doctorConfigured() {
    return !doctorArgs.isEmpty();
  }
}
