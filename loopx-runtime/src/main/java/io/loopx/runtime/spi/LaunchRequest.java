package io.loopx.runtime.spi;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * What to start and the bounds to apply: an immutable, validated value that LoopX creates and hands
 * to a {@link ProcessLauncher}. Implemented by LoopX only; hosts do not implement it.
 *
 * <p>The environment is the <em>complete</em> environment of the process (the launcher does not
 * merge in its own). An empty working directory means the host's current directory. Each captured
 * stream may hold at most its limit; one byte more is over the cap.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public interface LaunchRequest {

  /** The default cap of each output stream: 1,000,000 bytes (docs/contract/run.md). */
  int DEFAULT_OUTPUT_LIMIT = 1_000_000;

  /**
   * Returns the program and its arguments; the program is looked up on the request's {@code PATH}
   * unless it contains a {@code /} (then it is resolved against the working directory).
   */
  List<String> argv();

  /** Returns the complete environment of the process. */
  Map<String, String> environment();

  /** Returns the working directory (default file system), or empty for the host's. */
  Optional<Path> workingDirectory();

  /** Returns a copy of the bytes written to the process's stdin, which is then closed. */
  byte[] stdin();

  /** Returns the number of stdin bytes without copying them. */
  int stdinLength();

  /** Returns the wall-clock bound of the run, positive. */
  Duration timeout();

  /** Returns the largest acceptable stdout in bytes. */
  int stdoutLimit();

  /** Returns the largest acceptable stderr in bytes. */
  int stderrLimit();

  /**
   * Returns the file the kernel must be executing once the program runs (the program itself, or the
   * interpreter of a {@code #!} script), as hashed; empty for no check. A launcher that can see
   * what a process executes ({@code /proc/<pid>/exe}) checks it with {@link #executableMatches}
   * right after the start, before it writes stdin, and ends a mismatch as {@link
   * LaunchOutcome#EXECUTABLE_MISMATCH}; a launcher that cannot (a fake) ignores it.
   */
  Optional<Path> executable();

  /**
   * Returns whether {@code running} (for example {@code /proc/<pid>/exe}) is the {@link
   * #executable()} as it was hashed: the same device and inode, size and times. True when the
   * request names no executable; false when {@code running} cannot be read.
   */
  boolean executableMatches(Path running);

  /**
   * Returns the most bytes of memory (and of memory plus swap) the process and everything it starts
   * may use at once; empty for none. A launcher that {@linkplain ProcessLauncher#limitsMemory()
   * limits memory} applies it and ends a run whose process the limit killed as {@link
   * LaunchOutcome#MEMORY_LIMIT}; another ignores it.
   */
  OptionalLong memoryLimit();
}
