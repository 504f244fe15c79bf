package io.loopx.runtime.internal.process;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Small I/O and host-tool helpers of {@link OsProcessLauncher} (package-private). */
final class LaunchSupport {
  private static final List<String> TOOL_DIRECTORIES =
      List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin");

  private LaunchSupport() {}

  static void feed(OutputStream pipe, byte[] input) {
    try (OutputStream out = pipe) {
      out.write(input);
    } catch (IOException e) {
      // Broken pipe: the process exited or closed stdin without reading it all. Not an error.
    }
  }

  static void awaitExit(Process process) {
    while (true) {
      try {
        process.waitFor();
        return;
      } catch (InterruptedException e) {
        // Only the launcher's pool owns the thread; keep waiting (termination guarantees the exit).
      }
    }
  }

  static void closeQuietly(Closeable closeable) {
    try {
      closeable.close();
    } catch (IOException e) {
      // Already closed or broken: nothing left to release.
    }
  }

  static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /** Returns why a string cannot be passed to the process, if the JVM would have to mangle it. */
  static Optional<String> unencodable(List<String> command, Map<String, String> env) {
    Set<Charset> charsets = new LinkedHashSet<>();
    charsets.add(Charset.defaultCharset());
    String jnu = System.getProperty("sun.jnu.encoding");
    if (jnu != null && Charset.isSupported(jnu)) {
      charsets.add(Charset.forName(jnu));
    }
    List<String> values = new ArrayList<>(command);
    for (Map.Entry<String, String> entry : env.entrySet()) {
      values.add(entry.getKey());
      values.add(entry.getValue());
    }
    for (Charset charset : charsets) {
      for (String value : values) {
        if (!charset.newEncoder().canEncode(value)) {
          return Optional.of(
              "argument or environment value `"
                  + value
                  + "` cannot be represented in the platform encoding "
                  + charset.name()
                  + " (run the host under a UTF-8 locale)");
        }
      }
    }
    return Optional.empty();
  }

  /** Finds {@code name} in the usual tool directories, then on the JVM's PATH. */
  static Optional<Path> findTool(String name) {
    List<String> directories = new ArrayList<>(TOOL_DIRECTORIES);
    String path = System.getenv("PATH");
    if (path != null) {
      directories.addAll(List.of(path.split(":")));
    }
    for (String directory : directories) {
      try {
        Path candidate = Path.of(directory).resolve(name);
        if (candidate.isAbsolute()
            && Files.isRegularFile(candidate)
            && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      } catch (InvalidPathException e) {
        // Not a usable PATH entry.
      }
    }
    return Optional.empty();
  }
}
