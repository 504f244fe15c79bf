package io.loopx.runtime.internal.identity;

import io.loopx.api.InvalidValueException;
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

/** The code path of {@code java_main} children, built from the host's own class and module path. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class HostCodePath {
  private HostCodePath() {}

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
  public static List<Path> of(String classPath, String modulePath, Path workingDirectory) {
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
}
