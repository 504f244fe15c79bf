package io.loopx.api.manifest;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The one launch target of an extension runtime: an {@link Executable} found by path or on PATH, or
 * a {@link JavaMain} class started as a child JVM of the host's own {@code java}, with the host's
 * class path or with its own {@code java_class_path}.
 */
@API(status = API.Status.STABLE, since = "1.0")
public sealed interface LaunchTarget {

  /** Returns the manifest key of this target: {@code entrypoint} or {@code java_main}. */
  String manifestKey();

  /** Returns the declared value: the entrypoint text or the class name. */
  String value();

  /**
   * An executable entrypoint. Containing {@code /} it is a path (relative paths are resolved
   * against the manifest's directory); otherwise a name looked up on PATH. Never contains NUL.
   *
   * @param entrypoint the entrypoint text as declared (trimmed, non-empty)
   */
  record Executable(String entrypoint) implements LaunchTarget {
    /** Validates the entrypoint text. */
    public Executable {
      Objects.requireNonNull(entrypoint, "entrypoint");
      Checks.nonBlankNoNul("runtime.entrypoint", entrypoint);
    }

    @Override
    public String manifestKey() {
      return "entrypoint";
    }

    @Override
    public String value() {
      return entrypoint;
    }

    /** Returns whether the entrypoint is a path (contains {@code /}) rather than a PATH name. */
    public boolean isPath() {
      return entrypoint.indexOf('/') >= 0;
    }
  }

  /**
   * A fully-qualified Java class with a {@code main} method, started as a child process.
   *
   * <p>Without a class path the child gets the host's code path (its module path entries, then its
   * class path entries). With one ({@code runtime.java_class_path}) exactly those jars and class
   * directories, resolved against the manifest's directory, form the child's class path, and every
   * one of them is part of the runtime identity (docs/contract/manifest.md#java-class-path).
   *
   * @param className the binary class name, e.g. {@code io.loopx.samples.textstats.Main}
   * @param classPath the declared {@code java_class_path}: empty for the host's code path, else 1..
   *     {@value #MAX_CLASS_PATH_ENTRIES} distinct paths relative to the manifest's directory
   */
  record JavaMain(String className, List<String> classPath) implements LaunchTarget {
    /** The most {@code java_class_path} entries a runtime may declare. */
    public static final int MAX_CLASS_PATH_ENTRIES = 64;

    /** Validates the class name grammar and the class path entries; copies the class path. */
    public JavaMain {
      Objects.requireNonNull(className, "className");
      Checks.javaClassName("runtime.java_main", className);
      classPath = Checks.classPath("runtime.java_class_path", classPath);
    }

    /** Creates a target started with the host's code path (no {@code java_class_path}). */
    public JavaMain(String className) {
      this(className, List.of());
    }

    @Override
    public String manifestKey() {
      return "java_main";
    }

    @Override
    public String value() {
      return className;
    }

    /** Returns whether the child gets the host's code path (no {@code java_class_path}). */
    public boolean usesHostCodePath() {
      return classPath.isEmpty();
    }
  }
}
