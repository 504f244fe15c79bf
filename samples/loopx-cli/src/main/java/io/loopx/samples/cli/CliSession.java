package io.loopx.samples.cli;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.manifest.ManifestException;
import io.loopx.api.manifest.ManifestProblem;
import io.loopx.runtime.Loopx;
import io.loopx.runtime.ProviderEnvironment;
import io.loopx.runtime.events.DoctorProgress;
import io.loopx.runtime.events.LoopxEvent;
import io.loopx.runtime.lifecycle.DoctorNotReadyException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.InvalidPathException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One run of the CLI: where output goes, the format errors are reported in, and how the {@link
 * Loopx} facade of an invocation is built. Every byte on stdout and stderr goes through here, so a
 * run prints at most one JSON object (a result or an error packet) in the JSON format, and every
 * control, separator and bidirectional control character of data is escaped ({@link SafeText}).
 */
final class CliSession {
  /** The exit code of any error. */
  static final int EXIT_ERROR = 2;

  /** The {@code schema_version} of the error packet. */
  static final String ERROR_SCHEMA = "loopx_extension_error_v0";

  /** The {@code kind} of an unexpected failure (a defect, not bad input). */
  static final String INTERNAL_ERROR = "internal_error";

  private static final JsonMapper JSON = SafeText.JSON;

  private final CliEnvironment environment;
  private final InputStream in;
  private final PrintWriter out;
  private final PrintWriter err;
  private Format format;
  private final Style style;

  /**
   * Creates a session.
   *
   * @param environment the host process environment
   * @param format the format to report errors in until the command line is parsed (the pre-scan)
   * @param in stdin (read only by {@code --input-json -})
   * @param out stdout (UTF-8)
   * @param err stderr (UTF-8)
   */
  CliSession(
      CliEnvironment environment, Format format, InputStream in, PrintWriter out, PrintWriter err) {
    this.environment = Objects.requireNonNull(environment, "environment");
    this.format = Objects.requireNonNull(format, "format");
    this.in = Objects.requireNonNull(in, "in");
    this.out = Objects.requireNonNull(out, "out");
    this.err = Objects.requireNonNull(err, "err");
    this.style = new Style(environment.colour());
  }

  /** Returns the host process environment. */
  CliEnvironment environment() {
    return environment;
  }

  /** Returns stdin; the caller must not close it. */
  InputStream in() {
    return in;
  }

  /** Returns stdout, for picocli's help output. */
  PrintWriter out() {
    return out;
  }

  /** Returns stderr. */
  PrintWriter err() {
    return err;
  }

  /**
   * Starts the invocation of {@code leaf}: merges the global options of its command chain and
   * reports any later error in the format they chose.
   */
  Settings settings(CommandSpec leaf) {
    Settings settings = Settings.of(leaf, environment.userHome(), environment.variables());
    this.format = settings.format();
    return settings;
  }

  /**
   * Builds the facade for {@code settings}: the sample catalog, the sample host's domain policy and
   * the bundled manifests, over the state file or the PostgreSQL state ({@link StateDatabase});
   * closed already, so that it runs every provider one-shot.
   */
  Loopx loopx(Settings settings) {
    Loopx.Builder builder = builder(environment, settings);
    if (settings.stateJdbcUrl().isPresent()) {
      builder.activationStore(
          StateDatabase.store(settings.stateJdbcUrl().get(), environment.variables()));
    } else {
      builder.stateFile(settings.stateFile());
    }
    if (settings.format() == Format.TEXT && environment.stderrTerminal()) {
      builder.listener(this::progress);
    }
    Loopx loopx = builder.build();
    // One command per process: a warm worker would only add its start to the one call. A Loopx
    // closed before its first call runs every provider one-shot (docs/contract/worker.md), so a
    // command's receipts are those of a one-shot run and no worker outlives it.
    loopx.close();
    return loopx;
  }

  /**
   * A facade builder with the sample catalog, the sample host's domain policy, the bundled
   * manifests and the provider environment of {@code environment}; no state location yet.
   */
  static Loopx.Builder builder(CliEnvironment environment) {
    return builder(environment, List.of(), Optional.empty());
  }

  /**
   * As {@link #builder(CliEnvironment)}, with the provider options and access roots of {@code
   * settings}.
   */
  static Loopx.Builder builder(CliEnvironment environment, Settings settings) {
    Loopx.Builder builder = builder(environment, settings.providerEnv(), settings.providerPath());
    settings.accessRoots().forEach(builder::accessRoot);
    return builder;
  }

  private static Loopx.Builder builder(
      CliEnvironment environment, List<String> providerEnv, Optional<String> providerPath) {
    Loopx.Builder builder =
        Loopx.builder().builtin(new SampleCatalog()).domainPolicy(new SampleHostPolicy());
    environment.bundledManifests().forEach(builder::bundledManifest);
    // The host environment's PATH is the one PATH: runtimes are resolved on it, providers get it.
    builder.hostEnvironment(hostEnvironment(environment, providerPath));
    builder.providerEnvironment(providerPolicy(providerEnv));
    environment.isolation().ifPresent(builder::isolation);
    return builder;
  }

  /**
   * The host environment providers are chosen from (before the allow-list): the process's (or the
   * test's), with {@code PATH} replaced by {@code providerPath} when given.
   */
  static Map<String, String> hostEnvironment(
      CliEnvironment environment, Optional<String> providerPath) {
    Map<String, String> host =
        new LinkedHashMap<>(environment.providerEnvironment().orElseGet(System::getenv));
    providerPath.ifPresent(path -> host.put("PATH", path));
    return host;
  }

  /**
   * The CLI's provider environment (docs/contract/cli.md#provider-environment): an allow-list of
   * PATH, HOME, LANG, LC_*, TZ, TMPDIR and the {@code --provider-env} names, so neither the CLI's
   * own {@code LOOPX_STATE_JDBC_*} credentials nor any other secret of its environment reaches
   * extension code.
   */
  static ProviderEnvironment providerPolicy(List<String> providerEnv) {
    return ProviderEnvironment.allowList(providerEnv.toArray(String[]::new));
  }

  /**
   * Shows the progress of a doctor batch on stderr (text format, stderr a terminal): one line per
   * extension about to be probed, {@code loopx: doctor <n> of <m>: <id>}.
   */
  private void progress(LoopxEvent event) {
    if (event instanceof DoctorProgress p) {
      err.println(
          "loopx: doctor "
              + p.index()
              + " of "
              + p.total()
              + ": "
              + SafeText.escaped(p.extensionId().value()));
      err.flush();
    }
  }

  /** Prints a command's result in the session's format and returns its exit code. */
  int emit(CommandOutput output) {
    if (format == Format.JSON) {
      out.println(JSON.writeValueAsString(output.json()));
    } else {
      out.print(output.text().render(style));
    }
    return output.exitCode();
  }

  /**
   * Reports a failure (never a stack trace) and returns {@link #EXIT_ERROR}: with the JSON format
   * exactly one error packet on stdout, with the text format one line on stderr. A {@code
   * doctor_not_ready} failure also shows the doctor packet (its exit code, stderr tail and lookup):
   * the packet's {@code doctor} key, or its lines under the error line.
   */
  int fail(Throwable failure) {
    String kind = kindOf(failure);
    String message = messageOf(failure);
    Optional<ObjectNode> doctor =
        failure instanceof DoctorNotReadyException notReady
            ? Optional.of(notReady.doctor().toJson())
            : Optional.empty();
    List<ManifestProblem> problems =
        failure instanceof ManifestException manifest ? manifest.problems() : List.of();
    if (format == Format.JSON) {
      ObjectNode packet = errorPacket(kind, message);
      doctor.ifPresent(d -> packet.set("doctor", d));
      if (problems.size() > 1) {
        packet.set("problems", problemsJson(problems));
      }
      out.println(JSON.writeValueAsString(packet));
    } else {
      err.println(style.error("loopx: error [" + kind + "]: ") + SafeText.escaped(message));
      for (ManifestProblem problem :
          problems.subList(Math.min(1, problems.size()), problems.size())) {
        err.println("  also: " + SafeText.escaped(problem.message()) + position(problem));
      }
      doctor.ifPresent(
          d -> {
            d.remove(List.of("ok", "schema_version", "extension_id"));
            err.print(Text.keyValues(d, style));
          });
      if (kind.equals(UsageException.KIND)) {
        err.println("Run `loopx --help` (or `loopx COMMAND --help`) for usage.");
      }
    }
    return EXIT_ERROR;
  }

  /** Returns the error packet {@code loopx_extension_error_v0}. */
  static ObjectNode errorPacket(String kind, String message) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("ok", false);
    o.put("schema_version", ERROR_SCHEMA);
    o.put("status", "invalid_request");
    o.put("kind", kind);
    o.put("error", message);
    return o;
  }

  /**
   * Returns every problem of a manifest as the error packet's {@code problems}: {@code key}, {@code
   * line} and {@code column} when known, {@code error}.
   */
  private static ArrayNode problemsJson(List<ManifestProblem> problems) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    for (ManifestProblem problem : problems) {
      ObjectNode o = array.addObject();
      o.put("key", problem.key());
      problem.line().ifPresent(line -> o.put("line", line));
      problem.column().ifPresent(column -> o.put("column", column));
      o.put("error", problem.message());
    }
    return array;
  }

  /** Returns {@code " (line L, column C)"} for a problem whose position is known, else "". */
  private static String position(ManifestProblem problem) {
    if (problem.line().isEmpty()) {
      return "";
    }
    return " (line "
        + problem.line().getAsInt()
        + (problem.column().isPresent() ? ", column " + problem.column().getAsInt() : "")
        + ")";
  }

  private static String kindOf(Throwable failure) {
    if (failure instanceof LoopxException e) {
      return e.kind().wireName();
    }
    if (failure instanceof UsageException
        || failure instanceof ParameterException
        || failure instanceof InvalidPathException) {
      return UsageException.KIND;
    }
    if (failure instanceof UncheckedIOException) {
      return ErrorKind.IO_FAILED.wireName();
    }
    return INTERNAL_ERROR;
  }

  private static String messageOf(Throwable failure) {
    if (failure instanceof LoopxException e) {
      return NextActions.message(e);
    }
    String message = failure.getMessage();
    if (failure instanceof UsageException || failure instanceof ParameterException) {
      return message == null ? failure.getClass().getSimpleName() : message;
    }
    String name = failure.getClass().getSimpleName();
    return message == null ? name : name + ": " + message;
  }
}
