package io.loopx.runtime.internal.process;

import io.loopx.runtime.internal.isolation.IsolationPlan;
import io.loopx.runtime.spi.LaunchRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * A mutable, single-thread builder of {@link LaunchRequest}. Defaults: empty environment, the
 * host's working directory, empty stdin, {@link LaunchRequestRecord#DEFAULT_TIMEOUT}, {@link
 * LaunchRequest#DEFAULT_OUTPUT_LIMIT} for both streams. Validation happens in {@link #build()}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LaunchRequestBuilder {
  private final List<String> argv;
  private Map<String, String> environment = Map.of();
  private Optional<Path> workingDirectory = Optional.empty();
  private byte[] stdin = new byte[0];
  private Duration timeout = LaunchRequestRecord.DEFAULT_TIMEOUT;
  private int stdoutLimit = LaunchRequest.DEFAULT_OUTPUT_LIMIT;
  private int stderrLimit = LaunchRequest.DEFAULT_OUTPUT_LIMIT;
  private Optional<FileStamp> executable = Optional.empty();
  private OptionalLong memoryLimit = OptionalLong.empty();
  private IsolationPlan isolation = IsolationPlan.NONE_DECLARED;

  private LaunchRequestBuilder(List<String> argv) {
    this.argv = new ArrayList<>(Objects.requireNonNull(argv, "argv"));
  }

  /** Returns a builder for running {@code argv} with the defaults documented on its setters. */
  public static LaunchRequestBuilder of(List<String> argv) {
    return new LaunchRequestBuilder(argv);
  }

  /** Sets the complete environment of the process (copied). Default: empty. */
  public LaunchRequestBuilder environment(Map<String, String> environment) {
    this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    return this;
  }

  /** Sets the working directory. Default: the host's current directory. */
  public LaunchRequestBuilder workingDirectory(Path directory) {
    this.workingDirectory = Optional.of(Objects.requireNonNull(directory, "directory"));
    return this;
  }

  /** Sets the stdin bytes (copied). Default: none, stdin is closed at once. */
  public LaunchRequestBuilder stdin(byte[] bytes) {
    this.stdin = Objects.requireNonNull(bytes, "bytes").clone();
    return this;
  }

  /** Sets the timeout. Default: {@link LaunchRequestRecord#DEFAULT_TIMEOUT}. */
  public LaunchRequestBuilder timeout(Duration timeout) {
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    return this;
  }

  /** Sets the stdout limit. Default: {@link LaunchRequest#DEFAULT_OUTPUT_LIMIT}. */
  public LaunchRequestBuilder stdoutLimit(int limit) {
    this.stdoutLimit = limit;
    return this;
  }

  /** Sets the stderr limit. Default: {@link LaunchRequest#DEFAULT_OUTPUT_LIMIT}. */
  public LaunchRequestBuilder stderrLimit(int limit) {
    this.stderrLimit = limit;
    return this;
  }

  /** Sets the expected {@link LaunchRequest#executable()} (its stamp). Default: no check. */
  public LaunchRequestBuilder executable(FileStamp stamp) {
    this.executable = Optional.of(Objects.requireNonNull(stamp, "stamp"));
    return this;
  }

  /** Sets the {@link LaunchRequest#memoryLimit()} in bytes. Default: none. */
  public LaunchRequestBuilder memoryLimit(long bytes) {
    this.memoryLimit = OptionalLong.of(bytes);
    return this;
  }

  /**
   * Sets what the provider may reach when the launcher isolates it. Default: {@link
   * IsolationPlan#NONE_DECLARED}.
   */
  public LaunchRequestBuilder isolation(IsolationPlan plan) {
    this.isolation = Objects.requireNonNull(plan, "plan");
    return this;
  }

  /** Builds and validates the request (see {@link LaunchRequestRecord#LaunchRequestRecord}). */
  public LaunchRequest build() {
    return new LaunchRequestRecord(
        argv,
        environment,
        workingDirectory,
        stdin,
        timeout,
        stdoutLimit,
        stderrLimit,
        executable,
        memoryLimit,
        isolation);
  }
}
