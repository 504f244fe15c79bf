package io.loopx.samples.cli;

import io.loopx.api.InvalidValueException;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.Mode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The global options of one invocation, merged over the command chain from {@code loopx} down to
 * the command that runs.
 *
 * @param stateFile the activation state file (unused when {@code stateJdbcUrl} is present)
 * @param mode preview or execute
 * @param format the output format
 * @param stateJdbcUrl the JDBC URL of the PostgreSQL activation state, if the state is there
 * @param providerEnv the variables handed to providers besides the always allowed ones ({@code
 *     --provider-env})
 * @param providerPath the PATH of providers and runtime resolution ({@code --provider-path}), its
 *     entries absolute; empty means the CLI's own PATH
 * @param accessRoots the access roots by name ({@code --access-root NAME=DIR}), each an absolute
 *     existing directory, in the order given
 */
record Settings(
    Path stateFile,
    Mode mode,
    Format format,
    Optional<String> stateJdbcUrl,
    List<String> providerEnv,
    Optional<String> providerPath,
    Map<String, Path> accessRoots) {
  /** The environment variable that names the PostgreSQL state when no option does. */
  static final String JDBC_URL_VARIABLE = "LOOPX_STATE_JDBC_URL";

  /** The prefix of the CLI's own secrets, which no provider ever gets. */
  static final String OWN_SECRETS_PREFIX = "LOOPX_STATE_";

  /** Rejects nulls. */
  Settings {
    Objects.requireNonNull(stateFile, "stateFile");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(stateJdbcUrl, "stateJdbcUrl");
    providerEnv = List.copyOf(providerEnv);
    Objects.requireNonNull(providerPath, "providerPath");
    accessRoots = Collections.unmodifiableMap(new LinkedHashMap<>(accessRoots));
  }

  /** Settings without provider options. */
  Settings(Path stateFile, Mode mode, Format format, Optional<String> stateJdbcUrl) {
    this(stateFile, mode, format, stateJdbcUrl, List.of(), Optional.empty(), Map.of());
  }

  /** Settings of a state file. */
  Settings(Path stateFile, Mode mode, Format format) {
    this(stateFile, mode, format, Optional.empty());
  }

  /**
   * Merges the global options of {@code leaf} and its ancestors: for each option, the value given
   * deepest in the chain wins; {@code --execute} anywhere executes; {@code --state-file} overrides
   * {@code --runtime-root}, whose default is {@code .loopx} under {@code userHome}. Relative paths
   * are made absolute against the working directory. The PostgreSQL state is {@code
   * --state-jdbc-url}, else the variable {@value #JDBC_URL_VARIABLE} of {@code variables} unless
   * {@code --state-file} or {@code --runtime-root} is given; {@code --state-jdbc-url} with {@code
   * --state-file} is a usage error. The {@code --provider-env} names of the whole chain are
   * collected; an empty name, one with {@code =} or NUL, or one of the CLI's own secrets ({@value
   * #OWN_SECRETS_PREFIX}*) is a usage error. {@code --provider-path}'s relative entries are made
   * absolute, its empty ones dropped; one without any directory is a usage error. The {@code
   * --access-root NAME=DIR} mappings of the whole chain are collected; a value without {@code =}, a
   * bad NAME, a NAME mapped twice or a DIR that is not an existing directory is a usage error.
   */
  static Settings of(CommandSpec leaf, Path userHome, Map<String, String> variables) {
    List<GlobalOptions> chain = new ArrayList<>();
    for (@Nullable CommandSpec s = leaf; s != null; s = s.parent()) {
      if (s.userObject() instanceof GlobalOptions.Holder holder) {
        chain.add(holder.globalOptions());
      }
    }
    Collections.reverse(chain); // root first, leaf last
    Path runtimeRoot = userHome.resolve(".loopx");
    @Nullable Path stateFile = null;
    @Nullable String jdbcUrl = null;
    boolean fileGiven = false;
    boolean execute = false;
    Format format = Format.TEXT;
    Set<String> providerEnv = new LinkedHashSet<>();
    @Nullable String providerPath = null;
    Map<String, Path> accessRoots = new LinkedHashMap<>();
    for (GlobalOptions o : chain) {
      for (String mapping : o.accessRoots) {
        accessRoot(mapping, accessRoots);
      }
      if (o.providerPath != null) {
        providerPath = o.providerPath;
      }
      for (String name : o.providerEnv) {
        if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
          throw Arguments.usage(
              "--provider-env needs a variable name without `=` or NUL, got `" + name + "`");
        }
        if (name.startsWith(OWN_SECRETS_PREFIX)) {
          throw Arguments.usage(
              "--provider-env "
                  + name
                  + ": the CLI never hands its own state credentials ("
                  + OWN_SECRETS_PREFIX
                  + "*) to providers");
        }
        providerEnv.add(name);
      }
      if (o.runtimeRoot != null) {
        runtimeRoot = o.runtimeRoot;
        fileGiven = true;
      }
      if (o.stateFile != null) {
        stateFile = o.stateFile;
        fileGiven = true;
      }
      if (o.stateJdbcUrl != null) {
        jdbcUrl = o.stateJdbcUrl;
      }
      if (o.format != null) {
        format = o.format;
      }
      execute |= o.execute;
    }
    if (jdbcUrl != null && stateFile != null) {
      throw Arguments.usage("--state-jdbc-url and --state-file name two states; give one");
    }
    String fromVariable = variables.get(JDBC_URL_VARIABLE);
    if (jdbcUrl == null && !fileGiven && fromVariable != null && !fromVariable.isEmpty()) {
      jdbcUrl = fromVariable;
    }
    Path file =
        stateFile != null ? stateFile : runtimeRoot.resolve("extensions").resolve("state.json");
    return new Settings(
        file.toAbsolutePath(),
        execute ? Mode.EXECUTE : Mode.PREVIEW,
        format,
        Optional.ofNullable(jdbcUrl),
        List.copyOf(providerEnv),
        providerPath == null ? Optional.empty() : Optional.of(absoluteDirectories(providerPath)),
        accessRoots);
  }

  /**
   * Adds the mapping {@code NAME=DIR} to {@code roots}, DIR made absolute against the working
   * directory; the name is checked by the library's own rule ({@link
   * io.loopx.runtime.Loopx.Builder#accessRoot}).
   */
  private static void accessRoot(String mapping, Map<String, Path> roots) {
    int eq = mapping.indexOf('=');
    if (eq < 0) {
      throw Arguments.usage(
          "--access-root needs NAME=DIR, got `" + SafeText.escaped(mapping) + "`");
    }
    String name = mapping.substring(0, eq);
    String dir = mapping.substring(eq + 1);
    if (dir.isEmpty()) {
      throw Arguments.usage("--access-root " + SafeText.escaped(name) + ": DIR is empty");
    }
    Path directory = Arguments.path(dir).toAbsolutePath().normalize();
    try {
      Loopx.builder().accessRoot(name, directory);
    } catch (InvalidValueException e) {
      throw Arguments.usage("--access-root: " + e.getMessage());
    }
    if (roots.containsKey(name)) {
      throw Arguments.usage("--access-root " + name + " is given twice");
    }
    if (!Files.isDirectory(directory)) {
      throw Arguments.usage(
          "--access-root "
              + name
              + ": `"
              + SafeText.escaped(directory.toString())
              + "` is not an existing directory");
    }
    roots.put(name, directory);
  }

  /** The non-empty entries of {@code path}, each made absolute, joined with {@code :}. */
  private static String absoluteDirectories(String path) {
    List<String> dirs = new ArrayList<>();
    for (String entry : path.split(":", -1)) {
      if (!entry.isEmpty()) {
        dirs.add(Arguments.path(entry).toAbsolutePath().normalize().toString());
      }
    }
    if (dirs.isEmpty()) {
      throw Arguments.usage("--provider-path needs at least one directory, got `" + path + "`");
    }
    return String.join(":", dirs);
  }
}
