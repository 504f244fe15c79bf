package io.loopx.scaffold;

import io.loopx.api.ErrorKind;
import io.loopx.api.ExtensionId;
import io.loopx.api.InvalidValueException;
import io.loopx.api.LoopxException;
import io.loopx.runtime.Mode;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * {@code extension init ID}: creates a standalone extension starter package.
 *
 * <pre>{@code
 * ScaffoldReceipt r =
 *     Scaffold.init("my-ext", Optional.empty(), Optional.empty(), Path.of("."), Mode.EXECUTE);
 * }</pre>
 *
 * <p>The id, the version (default {@value #DEFAULT_VERSION}) and the destination (default {@code
 * packages/<id>}, which must not exist at all) are checked in a preview and an execute alike, each
 * failure a {@link LoopxException} of kind {@link ErrorKind#SCAFFOLD_INVALID} naming the value. A
 * preview writes nothing; an execute writes the package, and on any write error removes what it
 * created. It never builds, installs, registers or enables anything: the receipt's {@code
 * next_commands} are those steps. The checks and files are in docs/contract/scaffold.md. Works on
 * any {@link java.nio.file.FileSystem}; stateless and thread-safe.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class Scaffold {
  /** The version of a starter when none is given. */
  public static final String DEFAULT_VERSION = "0.1.0";

  /** The directory, under the working directory, that holds default destinations. */
  public static final String DEFAULT_PARENT = "packages";

  /** The sample host CLI that {@code next_commands} use. */
  public static final String HOST_COMMAND = "java -jar samples/loopx-cli/target/loopx.jar";

  private static final Pattern VERSION = Pattern.compile("[0-9]+\\.[0-9]+\\.[0-9]+");
  private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  private final FileSink sink;

  /** Creates a scaffold that writes through {@code sink} (tests inject failures here). */
  Scaffold(FileSink sink) {
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  /**
   * Validates a starter request and, when {@code mode} executes, writes the package.
   *
   * @param id the extension id of the starter
   * @param destination the package directory; default {@code packages/<id>}; a relative path is
   *     resolved against {@code workingDir}
   * @param version the starter's version; default {@value #DEFAULT_VERSION}
   * @param workingDir the directory that relative and default destinations start from
   * @param mode preview (write nothing) or execute
   * @return the receipt; its {@code files} say {@code would_create} in a preview and {@code
   *     created} after an execute
   * @throws LoopxException of kind {@link ErrorKind#SCAFFOLD_INVALID} for an invalid id, version or
   *     destination, or a write error (after removing the destination)
   */
  public static ScaffoldReceipt init(
      String id, Optional<Path> destination, Optional<String> version, Path workingDir, Mode mode) {
    return init(id, destination, version, StarterLanguage.JAVA, workingDir, mode);
  }

  /**
   * As {@link #init(String, Optional, Optional, Path, Mode)}, generating a provider in {@code
   * language}: for {@link StarterLanguage#PYTHON}, {@code bin/<id>} is a Python 3 provider script
   * and {@code bin/loopx_provider.py} the LoopX Python provider kit it imports (no {@code pom.xml},
   * no Java source; the receipt's {@code build} command runs the doctor probe instead).
   *
   * @throws LoopxException of kind {@link ErrorKind#SCAFFOLD_INVALID} as {@link #init(String,
   *     Optional, Optional, Path, Mode)}
   */
  public static ScaffoldReceipt init(
      String id,
      Optional<Path> destination,
      Optional<String> version,
      StarterLanguage language,
      Path workingDir,
      Mode mode) {
    return new Scaffold(FileSink.FILES)
        .create(id, destination, version, language, workingDir, mode);
  }

  /** {@link #init} with this scaffold's file sink, for a Java starter. */
  ScaffoldReceipt create(
      String id, Optional<Path> destination, Optional<String> version, Path workingDir, Mode mode) {
    return create(id, destination, version, StarterLanguage.JAVA, workingDir, mode);
  }

  /** {@link #init} with this scaffold's file sink. */
  ScaffoldReceipt create(
      String id,
      Optional<Path> destination,
      Optional<String> version,
      StarterLanguage language,
      Path workingDir,
      Mode mode) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(language, "language");
    Objects.requireNonNull(workingDir, "workingDir");
    Objects.requireNonNull(mode, "mode");
    ExtensionId extensionId = checkId(id);
    String starterVersion = checkVersion(version.orElse(DEFAULT_VERSION));
    Path target = resolveDestination(extensionId, destination, workingDir);
    checkDestination(target);
    List<Starter.PackageFile> files =
        language == StarterLanguage.PYTHON
            ? Starter.pythonFiles(extensionId, starterVersion)
            : Starter.files(extensionId, starterVersion);
    if (mode.executes()) {
      write(target, files);
    }
    ScaffoldFile.Status status =
        mode.executes() ? ScaffoldFile.Status.CREATED : ScaffoldFile.Status.WOULD_CREATE;
    return new ScaffoldReceipt(
        mode,
        extensionId,
        starterVersion,
        target,
        Starter.protocol(extensionId),
        files.stream().map(f -> new ScaffoldFile(f.path(), status)).toList(),
        nextCommands(extensionId, target, language),
        language);
  }

  // ---------------------------------------------------------------- validation

  private static ExtensionId checkId(String id) {
    try {
      return ExtensionId.of(id);
    } catch (InvalidValueException e) {
      throw new LoopxException(
          ErrorKind.SCAFFOLD_INVALID, "invalid extension starter id: " + e.getMessage(), e);
    }
  }

  private static String checkVersion(String version) {
    if (!VERSION.matcher(version).matches()) {
      throw new LoopxException(
          ErrorKind.SCAFFOLD_INVALID,
          "invalid extension starter version `"
              + version
              + "`: must match ^[0-9]+\\.[0-9]+\\.[0-9]+$ (for example "
              + DEFAULT_VERSION
              + ")");
    }
    return version;
  }

  private static Path resolveDestination(
      ExtensionId id, Optional<Path> destination, Path workingDir) {
    Path base = workingDir.toAbsolutePath();
    try {
      Path chosen =
          destination.orElseGet(() -> base.getFileSystem().getPath(DEFAULT_PARENT, id.value()));
      if (!chosen.getFileSystem().equals(base.getFileSystem())) {
        // a path of another file system: take its text on the working directory's
        chosen = base.getFileSystem().getPath(chosen.toString());
      }
      return base.resolve(chosen).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw new LoopxException(
          ErrorKind.SCAFFOLD_INVALID,
          "invalid extension starter destination `"
              + destination.map(Path::toString).orElse("")
              + "`: "
              + e.getMessage(),
          e);
    }
  }

  private static void checkDestination(Path target) {
    if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      throw new LoopxException(
          ErrorKind.SCAFFOLD_INVALID,
          "extension starter destination already exists: `" + target + "`");
    }
    for (@Nullable Path p = target.getParent(); p != null; p = p.getParent()) {
      if (Files.exists(p)) {
        if (!Files.isDirectory(p)) {
          throw new LoopxException(
              ErrorKind.SCAFFOLD_INVALID,
              "extension starter destination `"
                  + target
                  + "` is under `"
                  + p
                  + "`, which is not a directory");
        }
        return;
      }
    }
  }

  // ---------------------------------------------------------------- writing

  private void write(Path target, List<Starter.PackageFile> files) {
    List<Path> createdParents = new ArrayList<>();
    try {
      createParents(target.getParent(), createdParents);
      Files.createDirectory(target);
    } catch (FileAlreadyExistsException e) {
      String cleanup = removeCreated(createdParents);
      throw new LoopxException(
          ErrorKind.SCAFFOLD_INVALID,
          "extension starter destination already exists: `" + target + "`" + cleanup,
          e);
    } catch (IOException | RuntimeException e) {
      String cleanup = removeCreated(createdParents);
      throw new LoopxException(
          ErrorKind.SCAFFOLD_INVALID,
          "extension starter destination `"
              + target
              + "` could not be created: "
              + describe(e)
              + cleanup,
          e);
    }
    Path step = target;
    try {
      for (Starter.PackageFile f : files) {
        step = target.resolve(f.path());
        Path parent = step.getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        sink.write(step, f.content(), f.executable());
      }
    } catch (IOException | RuntimeException e) {
      String cleanup = removeTree(target) + removeCreated(createdParents);
      throw new LoopxException(
          ErrorKind.SCAFFOLD_INVALID,
          "extension starter file `"
              + step
              + "` could not be written: "
              + describe(e)
              + "; the destination was removed"
              + cleanup,
          e);
    }
  }

  /** Creates the missing ancestors of the destination, top down, recording those it created. */
  private static void createParents(@Nullable Path parent, List<Path> created) throws IOException {
    List<Path> missing = new ArrayList<>();
    for (@Nullable Path p = parent; p != null && !Files.exists(p); p = p.getParent()) {
      missing.add(0, p);
    }
    for (Path p : missing) {
      try {
        Files.createDirectory(p);
        created.add(0, p);
      } catch (FileAlreadyExistsException e) {
        if (!Files.isDirectory(p)) {
          throw new NotDirectoryException(p.toString());
        }
      }
    }
  }

  /** Deletes {@code target} and everything under it; returns a note when that failed. */
  private static String removeTree(Path target) {
    if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      return "";
    }
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(target)) {
      paths = walk.sorted(Comparator.reverseOrder()).toList();
    } catch (IOException | RuntimeException e) {
      return " (removing it failed: " + describe(e) + ")";
    }
    String note = "";
    for (Path p : paths) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException | RuntimeException e) {
        note = " (removing `" + p + "` failed: " + describe(e) + ")";
      }
    }
    return note;
  }

  /** Deletes the (empty) parent directories this call created, innermost first. */
  private static String removeCreated(List<Path> createdParents) {
    String note = "";
    for (Path p : createdParents) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException | RuntimeException e) {
        note = " (removing the created parent `" + p + "` failed: " + describe(e) + ")";
      }
    }
    return note;
  }

  private static String describe(Exception e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  // ---------------------------------------------------------------- receipt

  private static ScaffoldReceipt.NextCommands nextCommands(
      ExtensionId id, Path target, StarterLanguage language) {
    String build =
        language == StarterLanguage.PYTHON
            ? quote(target.resolve(Starter.launcher(id)).toString()) + " --doctor"
            : "mvn -q -f " + quote(target.resolve("pom.xml").toString()) + " package";
    return new ScaffoldReceipt.NextCommands(
        build,
        HOST_COMMAND
            + " extension install --manifest "
            + quote(target.resolve("extension.toml").toString())
            + " --execute",
        HOST_COMMAND
            + " extension run "
            + id.value()
            + " --input-json "
            + quote(target.resolve("examples").resolve("request.json").toString())
            + " --execute");
  }

  /** Quotes {@code word} for a POSIX shell when it holds anything but safe characters. */
  static String quote(String word) {
    if (SHELL_SAFE.matcher(word).matches()) {
      return word;
    }
    return "'" + word.replace("'", "'\"'\"'") + "'";
  }
}
