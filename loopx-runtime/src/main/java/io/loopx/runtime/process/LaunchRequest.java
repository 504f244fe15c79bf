package io.loopx.runtime.process;

import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.Durations;
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
 * What to start and the bounds to apply: an immutable, validated value.
 *
 * <p>The environment is the <em>complete</em> environment of the process (the launcher does not
 * merge in its own); building it, for example from the host's environment plus LoopX's variables,
 * is the caller's job. An empty working directory means the host's current directory.
 *
 * @param argv the program and its arguments; the program is looked up on the request's {@code PATH}
 *     unless it contains a {@code /} (then it is resolved against the working directory)
 * @param environment the complete environment of the process
 * @param workingDirectory the working directory (default file system), or empty for the host's
 * @param stdin the bytes written to the process's stdin, which is then closed
 * @param timeout the wall-clock bound of the run, positive
 * @param stdoutLimit the largest acceptable stdout in bytes; one byte more is over the cap
 * @param stderrLimit the largest acceptable stderr in bytes; one byte more is over the cap
 * @param executable the stamp of the file the kernel must be executing once the program runs (the
 *     program itself, or the interpreter of a {@code #!} script), taken when it was hashed; empty
 *     for no check. A launcher that can see what a process executes ({@code /proc/<pid>/exe})
 *     compares it right after the start, before it writes stdin, and ends a mismatch as {@link
 *     LaunchOutcome#EXECUTABLE_MISMATCH}; a launcher that cannot (a fake) ignores it
 * @param memoryLimit the most bytes of memory (and of memory plus swap) the process and everything
 *     it starts may use at once, at least {@value #MIN_MEMORY_LIMIT}; empty for none. A launcher
 *     that {@linkplain ProcessLauncher#limitsMemory() limits memory} applies it and ends a run
 *     whose process the limit's enforcement killed as {@link LaunchOutcome#MEMORY_LIMIT}; another
 *     ignores it
 */
// Arrays as components: the accessors copy and equals/hashCode/toString are overridden.
@SuppressWarnings("ArrayRecordComponent")
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record LaunchRequest(
    List<String> argv,
    Map<String, String> environment,
    Optional<Path> workingDirectory,
    byte[] stdin,
    Duration timeout,
    int stdoutLimit,
    int stderrLimit,
    Optional<FileStamp> executable,
    @API(status = API.Status.EXPERIMENTAL, since = "0.3") OptionalLong memoryLimit) {

  /** The default cap of each output stream: 1,000,000 bytes (docs/contract/run.md). */
  public static final int DEFAULT_OUTPUT_LIMIT = 1_000_000;

  /** The largest accepted output limit (the limit plus one byte must fit an array). */
  public static final int MAX_OUTPUT_LIMIT = Integer.MAX_VALUE - 16;

  /** The default timeout: 30 seconds, the manifest's default {@code timeout_seconds}. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /** The smallest accepted memory limit: 1 MiB. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.3")
  public static final long MIN_MEMORY_LIMIT = 1L << 20;

  /**
   * Validates and defensively copies every component.
   *
   * @throws InvalidValueException naming the value when argv is empty, an argument or environment
   *     entry contains NUL, a variable name is empty or contains {@code =}, the timeout is not
   *     positive, an output limit is outside {@code 0..MAX_OUTPUT_LIMIT}, or the memory limit is
   *     below {@link #MIN_MEMORY_LIMIT}
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.3")
  public LaunchRequest {
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
    Objects.requireNonNull(executable, "executable");
    Objects.requireNonNull(memoryLimit, "memoryLimit");
    if (memoryLimit.isPresent() && memoryLimit.getAsLong() < MIN_MEMORY_LIMIT) {
      throw new InvalidValueException(
          "memory limit",
          Long.toString(memoryLimit.getAsLong()),
          "must be at least " + MIN_MEMORY_LIMIT + " bytes");
    }
  }

  /** A request without a {@link #memoryLimit()}. */
  public LaunchRequest(
      List<String> argv,
      Map<String, String> environment,
      Optional<Path> workingDirectory,
      byte[] stdin,
      Duration timeout,
      int stdoutLimit,
      int stderrLimit,
      Optional<FileStamp> executable) {
    this(
        argv,
        environment,
        workingDirectory,
        stdin,
        timeout,
        stdoutLimit,
        stderrLimit,
        executable,
        OptionalLong.empty());
  }

  /** A request without an {@link #executable()} check. */
  public LaunchRequest(
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

  /** Returns a copy of the stdin bytes. */
  @Override
  public byte[] stdin() {
    return stdin.clone();
  }

  /** Returns the number of stdin bytes without copying them. */
  public int stdinLength() {
    return stdin.length;
  }

  /** Compares all components, the stdin bytes by content. */
  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof LaunchRequest that
        && that.argv.equals(argv)
        && that.environment.equals(environment)
        && that.workingDirectory.equals(workingDirectory)
        && Arrays.equals(that.stdin, stdin)
        && that.timeout.equals(timeout)
        && that.stdoutLimit == stdoutLimit
        && that.stderrLimit == stderrLimit
        && that.executable.equals(executable)
        && that.memoryLimit.equals(memoryLimit);
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
        executable,
        memoryLimit);
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
        + executable.map(FileStamp::key)
        + ", memoryLimit="
        + memoryLimit
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
