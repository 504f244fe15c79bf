package io.loopx.runtime.internal.process;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Resolves a program the way {@code execvp} would in the child, so that a missing or unusable
 * program is reported as "could not start" before anything runs (after {@code setsid} the exec
 * failure would only show as an exit status). A name with a {@code /} is resolved against the
 * working directory; any other name is searched on the request's {@code PATH} (an empty entry is
 * the working directory; no {@code PATH} means glibc's default {@code /bin:/usr/bin}).
 */
final class ProgramLookup {
  static final String DEFAULT_PATH = "/bin:/usr/bin";

  private ProgramLookup() {}

  /** The program's absolute path, or why there is none. */
  record Found(Optional<Path> program, String problem) {}

  static Found resolve(String program, @Nullable String path, Path workingDirectory) {
    try {
      if (program.indexOf('/') >= 0) {
        Path candidate = workingDirectory.resolve(program).toAbsolutePath();
        if (!Files.exists(candidate)) {
          return missing("executable `" + program + "` does not exist");
        }
        if (!Files.isRegularFile(candidate)) {
          return missing("executable `" + program + "` is not a regular file");
        }
        if (!Files.isExecutable(candidate)) {
          return missing("executable `" + program + "` is not executable");
        }
        return new Found(Optional.of(candidate), "");
      }
      String searched = path == null ? DEFAULT_PATH : path;
      for (String entry : searched.split(":", -1)) {
        Path directory = entry.isEmpty() ? workingDirectory : workingDirectory.resolve(entry);
        Path candidate = directory.resolve(program).toAbsolutePath();
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return new Found(Optional.of(candidate), "");
        }
      }
      return missing("executable `" + program + "` is not on PATH `" + searched + "`");
    } catch (InvalidPathException | SecurityException e) {
      return missing("executable `" + program + "` cannot be resolved: " + e.getMessage());
    }
  }

  private static Found missing(String problem) {
    return new Found(Optional.empty(), problem);
  }
}
