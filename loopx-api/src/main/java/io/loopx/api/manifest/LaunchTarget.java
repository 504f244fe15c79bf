package io.loopx.api.manifest;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The one launch target of an extension runtime: an {@link Executable} found by path or on PATH, or
 * a {@link JavaMain} class started as a child JVM of the host's own {@code java} with the host's
 * class path.
 */
@API(status = API.Status.STABLE, since = "0.1")
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
   * @param className the binary class name, e.g. {@code io.loopx.samples.textstats.Main}
   */
  record JavaMain(String className) implements LaunchTarget {
    /** Validates the class name grammar. */
    public JavaMain {
      Objects.requireNonNull(className, "className");
      Checks.javaClassName("runtime.java_main", className);
    }

    @Override
    public String manifestKey() {
      return "java_main";
    }

    @Override
    public String value() {
      return className;
    }
  }
}
