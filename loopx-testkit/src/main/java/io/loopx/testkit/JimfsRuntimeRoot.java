package io.loopx.testkit;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.loopx.runtime.RuntimeEnvironment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * An in-memory (Jimfs, Unix flavour with POSIX permissions) file system laid out for one LoopX
 * host:
 *
 * <pre>
 * /loopx/runtime-root/extensions/state.json   the activation state (created by LoopX when it writes)
 * /loopx/packages/&lt;id&gt;-&lt;version&gt;/           extension packages: extension.toml, bin/provider
 * /loopx/bin/                                 the PATH of the fake host
 * /loopx/jdk/bin/java                         the fake java executable (for java_main runtimes)
 * /loopx/classes/                             the fake code path (class directories)
 * </pre>
 *
 * <p>The {@linkplain #runtimeRoot() runtime root} itself is not created, so a test can check that a
 * preview creates nothing. Launchers are ordinary executable files: the real resolver identifies
 * them by content, so replacing a launcher's bytes changes its identity, exactly as on disk. Their
 * behaviour comes from a {@link ScriptedProcessLauncher}, never from their content.
 *
 * <p>Helpers throw {@link UncheckedIOException} on I/O errors. Not thread-safe to set up; closing
 * it closes the file system.
 */
@API(status = API.Status.STABLE, since = "1.0")
public final class JimfsRuntimeRoot implements AutoCloseable {
  private static final Set<PosixFilePermission> EXECUTABLE =
      PosixFilePermissions.fromString("rwxr-xr-x");

  private final FileSystem fileSystem;
  private final Path base;

  private JimfsRuntimeRoot(FileSystem fileSystem) {
    this.fileSystem = fileSystem;
    this.base = fileSystem.getPath("/loopx");
  }

  /** Creates a fresh file system with the layout above (all but the runtime root). */
  public static JimfsRuntimeRoot create() {
    FileSystem fs =
        Jimfs.newFileSystem(
            Configuration.unix().toBuilder().setAttributeViews("basic", "posix").build());
    JimfsRuntimeRoot root = new JimfsRuntimeRoot(fs);
    try {
      Files.createDirectories(root.packagesDirectory());
      Files.createDirectories(root.binDirectory());
      Files.createDirectories(root.classesDirectory());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    root.writeExecutable(root.javaExecutable(), "fake java executable\n");
    return root;
  }

  /** Returns the Jimfs file system. */
  public FileSystem fileSystem() {
    return fileSystem;
  }

  /** Returns {@code /loopx/runtime-root} (not created until LoopX writes state). */
  public Path runtimeRoot() {
    return base.resolve("runtime-root");
  }

  /** Returns {@code <runtime root>/extensions/state.json}. */
  public Path stateFile() {
    return runtimeRoot().resolve("extensions").resolve("state.json");
  }

  /** Returns the state lock file, {@code state.json.lock}. */
  public Path lockFile() {
    return stateFile().resolveSibling("state.json.lock");
  }

  /** Returns {@code /loopx/packages}, where {@link #writePackage} puts packages. */
  public Path packagesDirectory() {
    return base.resolve("packages");
  }

  /** Returns {@code /loopx/bin}, the fake host's only PATH entry. */
  public Path binDirectory() {
    return base.resolve("bin");
  }

  /** Returns the fake {@code java} executable, {@code /loopx/jdk/bin/java}. */
  public Path javaExecutable() {
    return base.resolve("jdk").resolve("bin").resolve("java");
  }

  /** Returns {@code /loopx/classes}, the fake code path's only entry. */
  public Path classesDirectory() {
    return base.resolve("classes");
  }

  /** Returns the PATH string of the fake host: {@link #binDirectory()}. */
  public String searchPath() {
    return binDirectory().toString();
  }

  /**
   * Returns the runtime environment of the fake host: PATH {@link #binDirectory()}, java {@link
   * #javaExecutable()}, code path [{@link #classesDirectory()}].
   */
  public RuntimeEnvironment runtimeEnvironment() {
    return new RuntimeEnvironment(searchPath(), javaExecutable(), List.of(classesDirectory()));
  }

  /** Returns the host environment handed to providers: only {@code PATH}. */
  public Map<String, String> hostEnvironment() {
    return Map.of("PATH", searchPath());
  }

  /** Returns the package directory {@link #writePackage} uses for {@code id} at {@code version}. */
  public Path packageDirectory(String id, String version) {
    return packagesDirectory().resolve(id + "-" + version.replaceAll("[^A-Za-z0-9._-]", "_"));
  }

  /**
   * Writes an extension package for {@code manifest}: {@code extension.toml} in {@link
   * #packageDirectory}, and, for an {@code entrypoint}, an executable launcher whose content names
   * the id and version (a path entrypoint under the package directory or at its absolute path; a
   * bare name in {@link #binDirectory()}, on PATH); for a {@code java_main}, its class file in
   * {@link #classesDirectory()}.
   */
  public ProviderPackage writePackage(ManifestBuilder manifest) {
    Path directory = packageDirectory(manifest.id(), manifest.version());
    Path manifestFile = writeManifest(directory, manifest.toToml());
    Optional<Path> launcher = Optional.empty();
    if (manifest.entrypoint().isPresent()) {
      String entrypoint = manifest.entrypoint().get();
      Path file =
          entrypoint.indexOf('/') >= 0
              ? withoutDotSegments(directory.resolve(entrypoint))
              : binDirectory().resolve(entrypoint);
      writeExecutable(file, launcherContent(manifest.id(), manifest.version(), 0));
      launcher = Optional.of(file);
    }
    manifest.javaMain().ifPresent(this::writeJavaMainClass);
    return new ProviderPackage(directory, manifestFile, launcher);
  }

  /** Drops {@code .} segments and keeps {@code ..}, as the resolver does with a path entrypoint. */
  private static Path withoutDotSegments(Path path) {
    Path out = path.getRoot();
    for (Path segment : path) {
      if (!segment.toString().equals(".")) {
        out = out == null ? segment : out.resolve(segment);
      }
    }
    return out == null ? path : out;
  }

  /**
   * Returns the launcher text {@link #writePackage} writes, with a {@code generation} number that
   * tests bump to give a replaced launcher new content (and so a new identity).
   */
  public static String launcherContent(String id, String version, int generation) {
    return "scripted provider " + id + " " + version + " generation " + generation + "\n";
  }

  /** Writes {@code toml} as {@code directory/extension.toml} and returns the file. */
  private Path writeManifest(Path directory, String toml) {
    return writeFile(directory.resolve(Manifests.FILE_NAME), toml);
  }

  /** Writes {@code content} (UTF-8) to {@code file}, creating parents, mode {@code rw-r--r--}. */
  Path writeFile(Path file, String content) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, content, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes {@code content} (UTF-8) to {@code file}, creating parents, and makes it executable
   * ({@code rwxr-xr-x}).
   */
  public Path writeExecutable(Path file, String content) {
    writeFile(file, content);
    try {
      Files.setPosixFilePermissions(file, EXECUTABLE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /**
   * Writes a placeholder class file for {@code className} into {@link #classesDirectory()} (the
   * resolver looks for the file and never loads it) and returns it.
   */
  private Path writeJavaMainClass(String className) {
    Path file = classesDirectory();
    String[] segments = className.split("\\.", -1);
    for (int i = 0; i < segments.length; i++) {
      file = file.resolve(i == segments.length - 1 ? segments[i] + ".class" : segments[i]);
    }
    return writeFile(file, "placeholder class " + className + "\n");
  }

  /** Deletes {@code file} if it exists; returns whether it did. */
  public boolean delete(Path file) {
    try {
      return Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Returns the bytes of the state file, or empty when it does not exist. */
  public Optional<byte[]> stateBytes() {
    try {
      return Optional.of(Files.readAllBytes(stateFile()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Closes the file system; its paths are unusable afterwards. */
  @Override
  public void close() {
    try {
      fileSystem.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * An extension package written by {@link #writePackage}.
   *
   * @param directory the package directory
   * @param manifestFile its {@code extension.toml}
   * @param launcher the launcher written for an {@code entrypoint} (empty for {@code java_main} or
   *     no runtime); script it under this path
   */
  public record ProviderPackage(Path directory, Path manifestFile, Optional<Path> launcher) {
    /** Rejects nulls. */
    public ProviderPackage {
      Objects.requireNonNull(directory, "directory");
      Objects.requireNonNull(manifestFile, "manifestFile");
      Objects.requireNonNull(launcher, "launcher");
    }
  }
}
