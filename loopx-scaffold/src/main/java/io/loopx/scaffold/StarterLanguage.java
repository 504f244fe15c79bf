package io.loopx.scaffold;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import java.util.Locale;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The language of a generated provider (docs/contract/scaffold.md): {@link #JAVA} (the default, a
 * Maven-built jar behind a POSIX launcher) or {@link #PYTHON} (a standard-library Python 3 script
 * with the LoopX Python provider kit beside it; nothing to build).
 */
@API(status = API.Status.STABLE, since = "1.0")
public enum StarterLanguage {
  /** A Java 17 provider built with Maven; the default. */
  JAVA,
  /** A Python 3 provider on the standard library and the kit {@code loopx_provider.py}. */
  PYTHON;

  /** Returns the lower-case name used on the command line ({@code java}, {@code python}). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Returns the language named {@code name} ({@code java} or {@code python}, exactly).
   *
   * @throws LoopxException of kind {@link ErrorKind#SCAFFOLD_INVALID} for any other name
   */
  public static StarterLanguage parse(String name) {
    Objects.requireNonNull(name, "name");
    for (StarterLanguage l : values()) {
      if (l.wireName().equals(name)) {
        return l;
      }
    }
    throw new LoopxException(
        ErrorKind.SCAFFOLD_INVALID,
        "invalid extension starter language `" + name + "`: must be java or python");
  }
}
