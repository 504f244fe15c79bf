package io.loopx.runtime.internal.process;

import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.Durations;
import io.loopx.runtime.internal.isolation.IsolationPlan;
import io.loopx.runtime.spi.LaunchRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The {@link LaunchRequest} LoopX creates: validated and defensively copied, with the stamp of the
 * expected executable (see {@link FileStamp}).
 *
 * @param argv the program and its arguments; the program is looked up on the request's {@code PATH}
 *     unless it contains a {@code /} (then it is resolved against the working directory)
 * @param environment the complete environment of the process
 * @param workingDirectory the working directory (default file system), or empty for the host's
 * @param stdin the bytes written to the process's stdin, which is then closed
 * @param timeout the wall-clock bound of the run, positive
 * @param stdoutLimit the largest acceptable stdout in bytes; one byte more is over the cap
 * @param stderrLimit the largest acceptable stderr in bytes; one byte more is over the cap
 * @param stamp the stamp of the file the kernel must be executing once the program runs, taken when
 *     it was hashed; empty for no check
 * @param memoryLimit the memory limit, at least {@value #MIN_MEMORY_LIMIT}; empty for none
 * @param isolation what the provider may reach when the launcher isolates it (docs/process.md)
 */
// Arrays as components: the accessors copy and equals/hashCode/toString are overridden.
@SuppressWarnings("ArrayRecordComponent")
@API(status = API.Status.INTERNAL, since = "1.0")
public record LaunchRequestRecord(
    List<String> argv,
    Map<String, String> environment,
    Optional<Path> workingDirectory,
    byte[] stdin,
    Duration timeout,
    int stdoutLimit,
    int stderrLimit,
    Optional<FileStamp> stamp,
    OptionalLong memoryLimit,
    IsolationPlan isolation)
    implements LaunchRequest {

  /** The largest accepted output limit (the limit plus one byte must fit an array). */
  public static final int MAX_OUTPUT_LIMIT = Integer.MAX_VALUE - 16;

  /** The default timeout: 30 seconds, the manifest's default {@code timeout_seconds}. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /** The smallest accepted memory limit: 1 MiB. */
  public static final long MIN_MEMORY_LIMIT = 1L << 20;

  /**
   * Validates and defensively copies every component.
   *
   * @throws InvalidValueException naming the value when argv is empty, an argument or environment
   *     entry contains NUL, a variable name is empty or contains {@code =}, the timeout is not
   *     positive, an output limit is outside {@code 0..MAX_OUTPUT_LIMIT}, or the memory limit is
   *     below {@link #MIN_MEMORY_LIMIT}
   */
  public LaunchRequestRecord {
    argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
    if (argv.isEmpty()) {
      throw new InvalidValueException("process argv", "[]", "must name a program");
    }
    if (argv.get(0).isEmpty()) {
      throw new InvalidValueException("process program", "", "must not be empty");
    }
    for (String arg : argv) {
      noNul("process argument", arg);
    }
    environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    for (Map.Entry<String, String> entry : environment.entrySet()) {
      String name = entry.getKey();
      if (name.isEmpty() || name.indexOf('=') >= 0) {
        throw new InvalidValueException(
            "environment variable name", name, "must be non-empty and contain no `=`");
      }
      noNul("environment variable name", name);
      noNul("value of environment variable `" + name + "`", entry.getValue());
    }
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    stdin = Objects.requireNonNull(stdin, "stdin").clone();
    Durations.requirePositive("process timeout", Objects.requireNonNull(timeout, "timeout"));
    checkLimit("stdout limit", stdoutLimit);
    checkLimit("stderr limit", stderrLimit);
    Objects.requireNonNull(stamp, "stamp");
    Objects.requireNonNull(memoryLimit, "memoryLimit");
    if (memoryLimit.isPresent() && memoryLimit.getAsLong() < MIN_MEMORY_LIMIT) {
      throw new InvalidValueException(
          "memory limit",
          Long.toString(memoryLimit.getAsLong()),
          "must be at least " + MIN_MEMORY_LIMIT + " bytes");
    }
    Objects.requireNonNull(isolation, "isolation");
  }

  /** A request with {@link IsolationPlan#NONE_DECLARED}. */
  public LaunchRequestRecord(
      List<String> argv,
      Map<String, String> environment,
      Optional<Path> workingDirectory,
      byte[] stdin,
      Duration timeout,
      int stdoutLimit,
      int stderrLimit,
      Optional<FileStamp> stamp,
      OptionalLong memoryLimit) {
    this(
        argv,
        environment,
        workingDirectory,
        stdin,
        timeout,
        stdoutLimit,
        stderrLimit,
        stamp,
        memoryLimit,
        IsolationPlan.NONE_DECLARED);
  }

  /** A request without a {@link #memoryLimit()}. */
  public LaunchRequestRecord(
      List<String> argv,
      Map<String, String> environment,
      Optional<Path> workingDirectory,
      byte[] stdin,
      Duration timeout,
      int stdoutLimit,
      int stderrLimit,
      Optional<FileStamp> stamp) {
    this(
        argv,
        environment,
        workingDirectory,
        stdin,
        timeout,
        stdoutLimit,
        stderrLimit,
        stamp,
        OptionalLong.empty());
  }

  /** A request without an {@link #executable()} check. */
  public LaunchRequestRecord(
      List<String> argv,
      Map<String, String> environment,
      Optional<Path> workingDirectory,
      byte[] stdin,
      Duration timeout,
      int stdoutLimit,
      int stderrLimit) {
    this(
        argv,
        environment,
        workingDirectory,
        stdin,
        timeout,
        stdoutLimit,
        stderrLimit,
        Optional.empty());
  }

  /** Returns the isolation plan of {@code request}; nothing declared for one LoopX did not make. */
  public static IsolationPlan isolationOf(LaunchRequest request) {
    return request instanceof LaunchRequestRecord r ? r.isolation() : IsolationPlan.NONE_DECLARED;
  }

  /** Returns the stamp of {@code request}'s executable; empty for a request LoopX did not make. */
  public static Optional<FileStamp> stampOf(LaunchRequest request) {
    return request instanceof LaunchRequestRecord r ? r.stamp() : Optional.empty();
  }

  @Override
  public Optional<Path> executable() {
    return stamp.map(FileStamp::path);
  }

  @Override
  public boolean executableMatches(Path running) {
    if (stamp.isEmpty()) {
      return true;
    }
    try {
      return FileStamp.read(running).map(stamp.get()::sameFileAs).orElse(false);
    } catch (IOException e) {
      return false;
    }
  }

  /** Returns a copy of the stdin bytes. */
  @Override
  public byte[] stdin() {
    return stdin.clone();
  }

  @Override
  public int stdinLength() {
    return stdin.length;
  }

  /** Compares all components, the stdin bytes by content. */
  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof LaunchRequestRecord that
        && that.argv.equals(argv)
        && that.environment.equals(environment)
        && that.workingDirectory.equals(workingDirectory)
        && Arrays.equals(that.stdin, stdin)
        && that.timeout.equals(timeout)
        && that.stdoutLimit == stdoutLimit
        && that.stderrLimit == stderrLimit
        && that.stamp.equals(stamp)
        && that.memoryLimit.equals(memoryLimit)
        && that.isolation.equals(isolation);
  }

  /** Hashes all components, the stdin bytes by content. */
  @Override
  public int hashCode() {
    return Objects.hash(
        argv,
        environment,
        workingDirectory,
        Arrays.hashCode(stdin),
        timeout,
        stdoutLimit,
        stderrLimit,
        stamp,
        memoryLimit,
        isolation);
  }

  /** Describes the request without the environment values or the stdin content. */
  @Override
  public String toString() {
    return "LaunchRequest[argv="
        + argv
        + ", environment="
        + environment.keySet().stream().sorted().toList()
        + ", workingDirectory="
        + workingDirectory
        + ", stdin="
        + stdin.length
        + " bytes, timeout="
        + timeout
        + ", stdoutLimit="
        + stdoutLimit
        + ", stderrLimit="
        + stderrLimit
        + ", executable="
        + stamp.map(FileStamp::key)
        + ", memoryLimit="
        + memoryLimit
        + ", isolation="
        + isolation
        + "]";
  }

  // Called from the compact constructor, before the fields are assigned.
  private static void noNul(String what, String value) {
    if (value.indexOf('\0') >= 0) {
      throw new InvalidValueException(what, value.replace("\0", "\\0"), "must not contain NUL");
    }
  }

  private static void checkLimit(String what, int limit) {
    if (limit < 0 || limit > MAX_OUTPUT_LIMIT) {
      throw new InvalidValueException(
          what, Integer.toString(limit), "must be 0.." + MAX_OUTPUT_LIMIT);
    }
  }
}
