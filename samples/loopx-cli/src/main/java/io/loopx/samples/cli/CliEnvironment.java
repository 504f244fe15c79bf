package io.loopx.samples.cli;

import io.loopx.runtime.IsolationPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the CLI takes from the process it runs in. {@link #current()} reads it once; tests build
 * their own.
 *
 * @param userHome the home directory under which the default runtime root {@code .loopx} lives
 * @param colour whether text output may use ANSI colour (stdout is a terminal, {@code NO_COLOR}
 *     unset)
 * @param bundledManifests the manifests shipped with the host, by bundled id, in order
 * @param providerEnvironment the environment handed to provider processes; empty means the process
 *     environment
 * @param temporaryDirectory where {@code demo} creates its fresh runtime root
 * @param stderrTerminal whether file descriptor 2 is a terminal ({@link Terminal#isStderr()}):
 *     text-format progress of long batch work is shown there
 * @param variables the process environment variables the CLI reads itself: {@code
 *     LOOPX_STATE_JDBC_URL}, {@code LOOPX_STATE_JDBC_USER} and {@code LOOPX_STATE_JDBC_PASSWORD}
 * @param isolation the isolation policy the CLI's facades set: empty (the CLI sets none, so its
 *     standalone extensions run isolated where bubblewrap is usable, docs/process.md#isolation) but
 *     in tests whose providers run on a code path the sandbox uid cannot read
 */
record CliEnvironment(
    Path userHome,
    boolean colour,
    Map<String, byte[]> bundledManifests,
    Optional<Map<String, String>> providerEnvironment,
    Path temporaryDirectory,
    boolean stderrTerminal,
    Map<String, String> variables,
    Optional<IsolationPolicy> isolation) {

  /** The process environment variables the CLI reads (the PostgreSQL state). */
  static final List<String> VARIABLES =
      List.of(
          Settings.JDBC_URL_VARIABLE, StateDatabase.USER_VARIABLE, StateDatabase.PASSWORD_VARIABLE);

  /** The ids of the extensions the sample host ships; missing ones are skipped. */
  static final List<String> BUNDLED_IDS = List.of("loopx-text-stats", "semantic-preference-local");

  /** Copies the maps (and the manifest bytes). */
  CliEnvironment {
    Objects.requireNonNull(userHome, "userHome");
    Objects.requireNonNull(temporaryDirectory, "temporaryDirectory");
    Map<String, byte[]> copy = new LinkedHashMap<>();
    bundledManifests.forEach((id, bytes) -> copy.put(id, bytes.clone()));
    bundledManifests = Collections.unmodifiableMap(copy);
    providerEnvironment = providerEnvironment.map(Map::copyOf);
    variables = Map.copyOf(variables);
    Objects.requireNonNull(isolation, "isolation");
  }

  /** An environment whose facades set no isolation policy. */
  CliEnvironment(
      Path userHome,
      boolean colour,
      Map<String, byte[]> bundledManifests,
      Optional<Map<String, String>> providerEnvironment,
      Path temporaryDirectory,
      boolean stderrTerminal,
      Map<String, String> variables) {
    this(
        userHome,
        colour,
        bundledManifests,
        providerEnvironment,
        temporaryDirectory,
        stderrTerminal,
        variables,
        Optional.empty());
  }

  /** Returns this environment with facades that set {@code policy} (tests). */
  CliEnvironment withIsolation(IsolationPolicy policy) {
    return new CliEnvironment(
        userHome,
        colour,
        bundledManifests,
        providerEnvironment,
        temporaryDirectory,
        stderrTerminal,
        variables,
        Optional.of(policy));
  }

  /** An environment without variables. */
  CliEnvironment(
      Path userHome,
      boolean colour,
      Map<String, byte[]> bundledManifests,
      Optional<Map<String, String>> providerEnvironment,
      Path temporaryDirectory,
      boolean stderrTerminal) {
    this(
        userHome,
        colour,
        bundledManifests,
        providerEnvironment,
        temporaryDirectory,
        stderrTerminal,
        Map.of());
  }

  /** An environment whose stderr is not a terminal. */
  CliEnvironment(
      Path userHome,
      boolean colour,
      Map<String, byte[]> bundledManifests,
      Optional<Map<String, String>> providerEnvironment,
      Path temporaryDirectory) {
    this(userHome, colour, bundledManifests, providerEnvironment, temporaryDirectory, false);
  }

  /** An environment whose temporary directory is this JVM's {@code java.io.tmpdir}. */
  CliEnvironment(
      Path userHome,
      boolean colour,
      Map<String, byte[]> bundledManifests,
      Optional<Map<String, String>> providerEnvironment) {
    this(userHome, colour, bundledManifests, providerEnvironment, systemTemporaryDirectory());
  }

  /** Returns a copy of the bundled manifests (the byte arrays are copied as well). */
  @Override
  public Map<String, byte[]> bundledManifests() {
    Map<String, byte[]> copy = new LinkedHashMap<>();
    bundledManifests.forEach((id, bytes) -> copy.put(id, bytes.clone()));
    return copy;
  }

  /**
   * Returns the environment of this JVM, with the bundled manifests found on the class path. Colour
   * needs a console: on Java 17, {@code System.console()} is null unless stdin and stdout are a
   * terminal (the sample targets Java 17; newer JDKs would need {@code Console.isTerminal()}).
   */
  @SuppressWarnings("SystemConsoleNull")
  static CliEnvironment current() {
    return new CliEnvironment(
        Path.of(System.getProperty("user.home")),
        System.console() != null && System.getenv("NO_COLOR") == null,
        bundledResources(BUNDLED_IDS),
        Optional.empty(),
        systemTemporaryDirectory(),
        Terminal.isStderr(),
        processVariables());
  }

  /** Returns the set {@link #VARIABLES} of this process. */
  private static Map<String, String> processVariables() {
    Map<String, String> found = new LinkedHashMap<>();
    for (String name : VARIABLES) {
      String value = System.getenv(name);
      if (value != null) {
        found.put(name, value);
      }
    }
    return found;
  }

  /**
   * Returns a plain environment (no colour, no bundled manifests) to report a failure of {@link
   * #current()} itself.
   */
  static CliEnvironment fallback() {
    return new CliEnvironment(Path.of(""), false, Map.of(), Optional.empty());
  }

  /**
   * Reads {@code loopx/bundled/<id>/extension.toml} from the class path for each id; ids without
   * the resource are skipped (their sample module is not on the class path).
   */
  static Map<String, byte[]> bundledResources(List<String> ids) {
    Map<String, byte[]> found = new LinkedHashMap<>();
    for (String id : ids) {
      resource("loopx/bundled/" + id + "/extension.toml").ifPresent(bytes -> found.put(id, bytes));
    }
    return found;
  }

  /**
   * Reads the class-path resource {@code name} (no leading slash), or returns empty when it is not
   * on the class path.
   */
  static Optional<byte[]> resource(String name) {
    try (InputStream in = CliEnvironment.class.getClassLoader().getResourceAsStream(name)) {
      return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read class-path resource " + name, e);
    }
  }

  private static Path systemTemporaryDirectory() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }
}
