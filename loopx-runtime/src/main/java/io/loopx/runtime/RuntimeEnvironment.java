package io.loopx.runtime;

import io.loopx.api.InvalidValueException;
import io.loopx.api.internal.Arguments;
import io.loopx.runtime.internal.identity.HostCodePath;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
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
 *     relative entries are dropped when a {@link Loopx} composes its one PATH, which a host
 *     environment's {@code PATH} replaces (see {@link Loopx.Builder#hostEnvironment})
 * @param javaExecutable the absolute path of the {@code java} executable
 * @param codePath absolute class path entries (class directories and jars) in search order; this is
 *     also the class path of {@code java_main} children
 */
@API(status = API.Status.STABLE, since = "1.0")
public record RuntimeEnvironment(String searchPath, Path javaExecutable, List<Path> codePath) {

  /**
   * Validates that every path is absolute and copies the code path.
   *
   * @throws InvalidValueException when a value is missing or a path is relative
   */
  public RuntimeEnvironment {
    Arguments.required("search path", searchPath);
    requireAbsolute("java executable", Arguments.required("java executable", javaExecutable));
    for (Path p : Arguments.required("code path", codePath)) {
      requireAbsolute("code path entry", Arguments.required("code path entry", p));
    }
    codePath = List.copyOf(codePath);
  }

  /**
   * Returns the environment of this JVM: {@code PATH} from the process environment (empty when
   * unset), {@code ${java.home}/bin/java}, and the code path built from {@code java.class.path},
   * {@code jdk.module.path} and {@code user.dir}.
   */
  public static RuntimeEnvironment current() {
    String path = System.getenv("PATH");
    Path javaHome = Path.of(System.getProperty("java.home")).toAbsolutePath();
    Path workingDirectory = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    return new RuntimeEnvironment(
        path == null ? "" : path,
        javaHome.resolve("bin").resolve("java"),
        HostCodePath.of(
            System.getProperty("java.class.path", ""),
            System.getProperty("jdk.module.path", ""),
            workingDirectory));
  }

  private static void requireAbsolute(String what, Path path) {
    if (!path.isAbsolute()) {
      throw new InvalidValueException(what, path.toString(), "must be an absolute path");
    }
  }
}
