package io.loopx.runtime;

import io.loopx.api.InvalidValueException;
import io.loopx.runtime.internal.identity.FileScan;
import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The inputs of runtime resolution that come from the host process: the PATH string, the {@code
 * java} executable for {@code java_main} children and the code path searched for their classes. The
 * resolver never reads the process environment or system properties itself; {@link #current()}
 * does, once, so tests and embedders can supply their own values.
 *
 * <p>Immutable value.
 *
 * @param searchPath the PATH string: entries separated by {@link File#pathSeparator}; empty and
 *     relative entries are skipped when searching
 * @param javaExecutable the absolute path of the {@code java} executable
 * @param codePath absolute class path entries (class directories and jars) in search order; this is
 *     also the class path of {@code java_main} children
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record RuntimeEnvironment(String searchPath, Path javaExecutable, List<Path> codePath) {

  /** Validates that every path is absolute and copies the code path. */
  public RuntimeEnvironment {
    Objects.requireNonNull(searchPath, "searchPath");
    Objects.requireNonNull(javaExecutable, "javaExecutable");
    codePath = List.copyOf(codePath);
    requireAbsolute("java executable", javaExecutable);
    codePath.forEach(p -> requireAbsolute("code path entry", p));
  }

  /**
   * Returns the environment of this JVM: {@code PATH} from the process environment (empty when
   * unset), {@code ${java.home}/bin/java}, and the code path built by {@link #codePathOf} from
   * {@code java.class.path}, {@code jdk.module.path} and {@code user.dir}.
   */
  public static RuntimeEnvironment current() {
    String path = System.getenv("PATH");
    Path javaHome = Path.of(System.getProperty("java.home")).toAbsolutePath();
    Path workingDirectory = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    return new RuntimeEnvironment(
        path == null ? "" : path,
        javaHome.resolve("bin").resolve("java"),
        codePathOf(
            System.getProperty("java.class.path", ""),
            System.getProperty("jdk.module.path", ""),
            workingDirectory));
  }

  /**
   * Builds a code path from a host's class path and module path strings (entries separated by
   * {@link File#pathSeparator}): module path entries first, then class path entries, because a
   * {@code java_main} child gets all of them on its class path and the host resolves a class in a
   * named module before the class path. Relative entries are made absolute against {@code
   * workingDirectory} (a host started with {@code java -jar} has a relative class path); empty and
   * duplicate entries are dropped. A module path directory that is not itself an exploded module
   * (it has no {@code module-info.class}) is a directory of modules: it is replaced by its {@code
   * .jar} files and subdirectories, sorted by name. Entries that do not exist are kept (they are
   * skipped when searching) so the child's class path matches the host's.
   *
   * <p>Paths are created on {@code workingDirectory}'s file system.
   *
   * @throws io.loopx.api.LoopxException of kind {@code IO_FAILED} when a module directory cannot be
   *     listed
   */
  public static List<Path> codePathOf(String classPath, String modulePath, Path workingDirectory) {
    Objects.requireNonNull(classPath, "classPath");
    Objects.requireNonNull(modulePath, "modulePath");
    Path base = workingDirectory.toAbsolutePath();
    Set<Path> entries = new LinkedHashSet<>();
    for (Path entry : split(modulePath, base)) {
      if (Files.isDirectory(entry) && !Files.exists(entry.resolve("module-info.class"))) {
        entries.addAll(modulesIn(entry));
      } else {
        entries.add(entry);
      }
    }
    entries.addAll(split(classPath, base));
    return List.copyOf(entries);
  }

  private static List<Path> split(String pathString, Path base) {
    List<Path> out = new ArrayList<>();
    for (String entry : pathString.split(File.pathSeparator, -1)) {
      if (entry.isEmpty()) {
        continue;
      }
      try {
        out.add(base.resolve(base.getFileSystem().getPath(entry)));
      } catch (InvalidPathException e) {
        throw new InvalidValueException("code path entry", entry, "is not a valid path");
      }
    }
    return out;
  }

  private static List<Path> modulesIn(Path directory) {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(directory)) {
      for (Path child : children) {
        String name = child.getFileName().toString();
        if (Files.isDirectory(child) || (name.endsWith(".jar") && Files.isRegularFile(child))) {
          out.add(child);
        }
      }
    } catch (IOException e) {
      throw FileScan.ioFailed(directory, e);
    }
    out.sort(Comparator.comparing(p -> p.getFileName().toString()));
    return out;
  }

  private static void requireAbsolute(String what, Path path) {
    if (!path.isAbsolute()) {
      throw new InvalidValueException(what, path.toString(), "must be an absolute path");
    }
  }
}
