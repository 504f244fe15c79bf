package io.loopx.runtime.internal.identity;

import io.loopx.api.manifest.LaunchTarget;
import java.io.File;
import java.nio.file.FileSystem;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where {@link RuntimeResolver} finds the files it identifies: an {@code entrypoint} containing
 * {@code /} against the manifest's directory ({@code .} segments dropped, {@code ..} kept, symbolic
 * links not resolved), any other on the PATH (the first entry holding a regular file with an
 * execute bit; empty and relative entries skipped); and the interpreter a {@code #!} line names: an
 * absolute path as written, or, for {@code env}, its single argument looked up in the launcher's
 * directory first, then on the PATH. What is not one plain program name (options, several words, an
 * assignment, non-UTF-8 bytes, a line longer than {@link Shebang#LIMIT}) is refused.
 */
final class ProgramLocator {
  private final String searchPath;
  private final CodeSources.Scanner scanner;

  /**
   * Creates a locator looking names up on {@code searchPath}; {@code env} is scanned through {@code
   * scanner}, to refuse it when it is itself a {@code #!} script.
   */
  ProgramLocator(String searchPath, CodeSources.Scanner scanner) {
    this.searchPath = searchPath;
    this.scanner = scanner;
  }

  /** What a shebang line names: a file, nothing resolvable, or something refused. */
  sealed interface Interpreter {
    record Found(Path path) implements Interpreter {}

    record NotFound(EntrypointLookup lookup) implements Interpreter {}

    record Refused(String why) implements Interpreter {}
  }

  Optional<Path> locate(LaunchTarget.Executable executable, Path manifestDirectory) {
    String entrypoint = executable.entrypoint();
    FileSystem fs = manifestDirectory.getFileSystem();
    if (!executable.isPath()) {
      return searchPath(entrypoint, fs);
    }
    Path candidate;
    try {
      candidate = withoutDotSegments(manifestDirectory.resolve(fs.getPath(entrypoint)));
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    return FileScan.regularFileExecutable(candidate).isPresent()
        ? Optional.of(candidate)
        : Optional.empty();
  }

  /**
   * Why an interpreter that is itself a {@code #!} script is refused, and the way forward: for a
   * program {@code env} looked up by {@code name}, a providers' PATH on which it is a binary;
   * always, an absolute {@code #!} line naming a binary interpreter.
   */
  static String scriptInterpreter(Path interpreter, Optional<String> name) {
    String reason = "its interpreter `" + interpreter + "` is itself a `#!` script";
    return name.isPresent()
        ? reason
            + ": give providers a PATH on which `"
            + name.get()
            + "` is a binary, or start the entrypoint with an absolute `#!` naming a binary"
            + " interpreter"
        : reason + ": start the entrypoint with an absolute `#!` naming a binary interpreter";
  }

  Interpreter interpreter(Shebang shebang, Path launcher) {
    Interpreter notFound = notFound(EntrypointLookup.ofPath(shebang.text()));
    if (!shebang.complete()) {
      return new Interpreter.Refused(
          "its `#!` line does not end within " + Shebang.LIMIT + " bytes");
    }
    if (shebang.interpreterEmpty()) {
      return notFound;
    }
    Optional<String> written = shebang.interpreter();
    if (written.isEmpty()) {
      return new Interpreter.Refused("its `#!` interpreter path is not valid UTF-8");
    }
    FileSystem fs = launcher.getFileSystem();
    Path direct;
    try {
      direct = fs.getPath(written.get());
    } catch (InvalidPathException e) {
      return notFound(EntrypointLookup.ofPath(written.get()));
    }
    if (!direct.isAbsolute()) {
      return notFound(EntrypointLookup.ofPath(written.get()));
    }
    Path fileName = direct.getFileName();
    if (fileName == null || !fileName.toString().equals("env")) {
      return new Interpreter.Found(direct);
    }
    Optional<FileScan> env =
        FileScan.regularFileExecutable(direct).isPresent()
            ? scanner.scan(direct, 2)
            : Optional.empty();
    if (env.isEmpty()) {
      return notFound(EntrypointLookup.ofPath(direct.toString()));
    }
    if (isScript(env.get())) {
      return new Interpreter.Refused(scriptInterpreter(direct, Optional.empty()));
    }
    if (!shebang.hasArgument()) {
      return notFound;
    }
    Optional<String> argument = shebang.argument();
    if (argument.isEmpty()) {
      return new Interpreter.Refused("its `#!` program name for env is not valid UTF-8");
    }
    String name = argument.get();
    if (name.startsWith("-")) {
      return new Interpreter.Refused("its `#!` line passes options to env (`" + name + "`)");
    }
    if (name.indexOf(' ') >= 0 || name.indexOf('\t') >= 0) {
      return new Interpreter.Refused(
          "its `#!` line passes more than one word to env (`" + name + "`)");
    }
    if (name.indexOf('=') >= 0) {
      return new Interpreter.Refused("its `#!` line passes an assignment to env (`" + name + "`)");
    }
    return program(name, launcher, fs)
        .<Interpreter>map(Interpreter.Found::new)
        .orElseGet(() -> notFound(programLookup(name, launcher)));
  }

  private static Interpreter notFound(EntrypointLookup lookup) {
    return new Interpreter.NotFound(lookup);
  }

  /** Where {@link #program} looked for {@code name}: the launcher's directory, then the PATH. */
  private EntrypointLookup programLookup(String name, Path launcher) {
    if (name.indexOf('/') >= 0) {
      return EntrypointLookup.ofPath(name);
    }
    Path launcherDirectory = launcher.getParent();
    String path = searchPath;
    if (launcherDirectory != null) {
      path =
          path.isEmpty()
              ? launcherDirectory.toString()
              : launcherDirectory + File.pathSeparator + path;
    }
    return new EntrypointLookup(name, path);
  }

  private Optional<Path> program(String name, Path launcher, FileSystem fs) {
    if (name.indexOf('/') >= 0) {
      try {
        Path path = fs.getPath(name);
        return path.isAbsolute() ? Optional.of(path) : Optional.empty();
      } catch (InvalidPathException e) {
        return Optional.empty();
      }
    }
    Path launcherDirectory = launcher.getParent();
    if (launcherDirectory != null) {
      Optional<Path> beside = candidate(launcherDirectory, name);
      if (beside.isPresent()) {
        return beside;
      }
    }
    return searchPath(name, fs);
  }

  private Optional<Path> searchPath(String name, FileSystem fs) {
    for (Path directory : pathDirectories(fs)) {
      Optional<Path> found = candidate(directory, name);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> candidate(Path directory, String name) {
    Path file;
    try {
      file = directory.resolve(name);
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    return FileScan.isRegularExecutable(file) ? Optional.of(file) : Optional.empty();
  }

  private List<Path> pathDirectories(FileSystem fs) {
    List<Path> out = new ArrayList<>();
    for (String entry : searchPath.split(File.pathSeparator, -1)) {
      if (entry.isEmpty()) {
        continue;
      }
      try {
        Path directory = fs.getPath(entry);
        if (directory.isAbsolute()) {
          out.add(directory);
        }
      } catch (InvalidPathException e) {
        // not a path on this file system: it cannot hold the program
      }
    }
    return out;
  }

  static boolean isScript(FileScan scan) {
    byte[] head = scan.head();
    return head.length >= 2 && head[0] == '#' && head[1] == '!';
  }

  static Path withoutDotSegments(Path absolute) {
    Path root = absolute.getRoot();
    if (root == null) {
      return absolute;
    }
    Path out = root;
    for (Path segment : absolute) {
      if (!segment.toString().equals(".")) {
        out = out.resolve(segment);
      }
    }
    return out;
  }
}
