package io.loopx.samples.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The lifecycle walk of {@code loopx demo}: in a fresh temporary runtime root, each step runs one
 * real {@code loopx} command line in process (with {@code --format json} added, so its receipt or
 * error packet can be shown) and checks its exit code. The walk stops at the first step whose exit
 * code is not the expected one. The runtime root is deleted at the end unless kept.
 *
 * <p>Steps: preview install → install → list → doctor → run → disable → run refused (exit 2, the
 * error packet is shown) → enable → upgrade to the bundled 1.1.0 manifest → rollback of {@code
 * loopx-text-stats}; then install {@code semantic-preference-local} and recall through {@code
 * semantic-preference}; then the same recall one-shot and through a warm worker of an embedded
 * {@code Loopx}, timed ({@link WarmRecalls}). When a bundled manifest is missing from the build,
 * the step that needs it fails (exit 2) and the walk reports which class-path resource is missing.
 *
 * <p>Result {@code loopx_demo_v0}: {@code {ok, schema_version, steps:[{title, command, exit_code,
 * receipt}], warm_workers}}; {@code command} is the step's command line without the {@code --format
 * json} the walk adds; {@code warm_workers} ({@link WarmRecalls#toJson()}) only when every step
 * exited as expected.
 */
final class DemoWalk {
  /** The standalone extension the walk manages. */
  static final String TEXT_STATS = "loopx-text-stats";

  /** The provider of {@code semantic-preference} the walk installs. */
  static final String SEMANTIC_PREFERENCE_LOCAL = "semantic-preference-local";

  /** The class-path resource of the {@code loopx-text-stats} 1.1.0 manifest. */
  static final String UPGRADE_RESOURCE = "loopx/bundled/loopx-text-stats/upgrade/extension.toml";

  /**
   * The request of the run steps: the content of {@code samples/text-stats/examples/request.json}.
   */
  static final String TEXT_STATS_REQUEST =
      """
      {
        "schema_version": "loopx_text_stats_request_v0",
        "text": "LoopX counts text.\\nIt counts 你好 as one word, and 🌍 as one character.\\n"
      }
      """;

  /** The request of the recall step. */
  static final String RECALL_REQUEST =
      """
      {
        "schema_version": "semantic_preference_request_v0",
        "query": "Which tea does the owner prefer in the morning?",
        "limit": 3
      }
      """;

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Pattern PLAIN_WORD = Pattern.compile("[A-Za-z0-9_./:=@%+,-]+");

  private final CliEnvironment environment;
  private final Path root;
  private final List<Step> steps = new ArrayList<>();
  private Optional<String> stop = Optional.empty();
  private Optional<WarmRecalls> warm = Optional.empty();

  /**
   * One step that ran.
   *
   * @param title what the step shows
   * @param command the command line (without the added {@code --format json})
   * @param exitCode its exit code
   * @param expectedExitCode the exit code the walk expects
   * @param receipt what it printed: a receipt, packet or error packet
   */
  record Step(
      String title, String command, int exitCode, int expectedExitCode, ObjectNode receipt) {
    /** Copies the receipt. */
    Step {
      Objects.requireNonNull(title, "title");
      Objects.requireNonNull(command, "command");
      receipt = receipt.deepCopy();
    }

    /** Returns a copy of the receipt. */
    @Override
    public ObjectNode receipt() {
      return receipt.deepCopy();
    }

    /** Returns whether the step exited as expected. */
    boolean asExpected() {
      return exitCode == expectedExitCode;
    }
  }

  private DemoWalk(CliEnvironment environment, Path root) {
    this.environment = environment;
    this.root = root;
  }

  /**
   * Runs the walk in a new directory under the environment's temporary directory and deletes it
   * afterwards unless {@code keep}.
   *
   * @throws LoopxException {@code manifest_invalid} when the upgrade manifest is not on the class
   *     path; {@code io_failed} when the runtime root cannot be created, written or deleted
   */
  static CommandOutput run(CliEnvironment environment, boolean keep) {
    byte[] upgrade =
        CliEnvironment.resource(UPGRADE_RESOURCE)
            .orElseThrow(
                () ->
                    new LoopxException(
                        ErrorKind.MANIFEST_INVALID,
                        "the demo needs the bundled loopx-text-stats 1.1.0 manifest, but the"
                            + " class-path resource "
                            + UPGRADE_RESOURCE
                            + " is missing from this build"));
    Path root;
    try {
      root = Files.createTempDirectory(environment.temporaryDirectory(), "loopx-demo-");
    } catch (IOException e) {
      throw ioFailed(
          "cannot create the demo runtime root in " + environment.temporaryDirectory(), e);
    }
    DemoWalk walk = new DemoWalk(environment, root);
    try {
      walk.walk(upgrade);
    } finally {
      if (!keep) {
        delete(root);
      }
    }
    return walk.output(keep);
  }

  private void walk(byte[] upgradeManifest) {
    Path inputs = root.resolve("demo-inputs");
    Path request = inputs.resolve("text-stats-request.json");
    Path upgrade = inputs.resolve("loopx-text-stats-1.1.0").resolve("extension.toml");
    Path recall = inputs.resolve("recall-request.json");
    try {
      Files.createDirectories(upgrade.getParent());
      Files.writeString(request, TEXT_STATS_REQUEST, UTF_8);
      Files.write(upgrade, upgradeManifest);
      Files.writeString(recall, RECALL_REQUEST, UTF_8);
    } catch (IOException e) {
      throw ioFailed("cannot write the demo inputs under " + inputs, e);
    }
    String ts = TEXT_STATS;
    step("Preview the install of " + ts, 0, "extension", "install", "--bundled", ts);
    step(
        "Install " + ts + " (its doctor is probed, then it is enabled)",
        0,
        "extension",
        "install",
        "--bundled",
        ts,
        "--execute");
    step("List the installed extensions", 0, "extension", "list");
    step("Run the doctor of " + ts, 0, "extension", "doctor", ts, "--execute");
    String[] run = {"extension", "run", ts, "--input-json", request.toString(), "--execute"};
    step("Run " + ts + " on its example request", 0, run);
    step("Disable " + ts, 0, "extension", "disable", ts, "--execute");
    step("Run the disabled " + ts + " (refused: exit 2 and an error packet)", 2, run);
    step("Enable " + ts + " (a fresh doctor probe)", 0, "extension", "enable", ts, "--execute");
    step(
        "Upgrade " + ts + " to the bundled 1.1.0 manifest",
        0,
        "extension",
        "upgrade",
        "--manifest",
        upgrade.toString(),
        "--execute");
    step("Roll " + ts + " back to 1.0.0", 0, "extension", "rollback", ts, "--execute");
    String sp = SEMANTIC_PREFERENCE_LOCAL;
    if (walking() && !environment.bundledManifests().containsKey(sp)) {
      stop =
          Optional.of(
              "The bundled manifest of `"
                  + sp
                  + "` (class-path resource loopx/bundled/"
                  + sp
                  + "/extension.toml) is missing from this build: put the semantic-preference"
                  + " sample module on the CLI's class path.");
    }
    step(
        "Install " + sp + " (implements semantic-preference)",
        0,
        "extension",
        "install",
        "--bundled",
        sp,
        "--execute");
    step(
        "Recall preferences through the semantic-preference capability",
        0,
        "semantic-preference",
        "recall",
        "--input-json",
        recall.toString(),
        "--execute");
    if (walking()) {
      warm = Optional.of(WarmRecalls.measure(environment, root, RECALL_REQUEST.getBytes(UTF_8)));
      if (!warm.get().ok()) {
        stop =
            Optional.of(
                "The warm-worker comparison failed: "
                    + (warm.get().failures().isEmpty()
                        ? warm.get().processesLeft() + " provider processes left after close()"
                        : warm.get().failures().get(0)));
      }
    }
  }

  /** Runs one command line unless an earlier step did not exit as expected. */
  private void step(String title, int expectedExitCode, String... args) {
    if (!walking()) {
      return;
    }
    List<String> command = new ArrayList<>(List.of(args));
    command.add("--runtime-root");
    command.add(root.toString());
    List<String> argv = new ArrayList<>(command);
    argv.add("--format");
    argv.add("json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        LoopxCli.execute(
            argv.toArray(new String[0]),
            InputStream.nullInputStream(),
            out,
            err,
            () -> environment);
    steps.add(
        new Step(
            title,
            commandLine(command),
            code,
            expectedExitCode,
            parse(out.toString(UTF_8), err.toString(UTF_8))));
  }

  private static ObjectNode parse(String stdout, String stderr) {
    try {
      JsonNode node = JSON.readTree(stdout);
      if (node instanceof ObjectNode object) {
        return object;
      }
    } catch (JacksonException e) {
      // reported below
    }
    return CliSession.errorPacket(
        CliSession.INTERNAL_ERROR,
        "the step printed no JSON object: stdout `"
            + stdout.strip()
            + "`, stderr `"
            + stderr.strip()
            + "`");
  }

  /** Returns whether every step so far exited as expected. */
  private boolean walking() {
    return steps.isEmpty() || steps.get(steps.size() - 1).asExpected();
  }

  /** Returns {@code loopx ARGS} with each argument quoted for a POSIX shell when needed. */
  static String commandLine(List<String> args) {
    StringBuilder line = new StringBuilder("loopx");
    for (String arg : args) {
      line.append(' ');
      if (PLAIN_WORD.matcher(arg).matches()) {
        line.append(arg);
      } else {
        line.append('\'').append(arg.replace("'", "'\\''")).append('\'');
      }
    }
    return line.toString();
  }

  private boolean ok() {
    return steps.stream().allMatch(Step::asExpected) && warm.map(WarmRecalls::ok).orElse(true);
  }

  private CommandOutput output(boolean kept) {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("ok", ok());
    json.put("schema_version", DemoCommand.SCHEMA_VERSION);
    ArrayNode array = json.putArray("steps");
    for (Step s : steps) {
      ObjectNode entry = array.addObject();
      entry.put("title", s.title());
      entry.put("command", s.command());
      entry.put("exit_code", s.exitCode());
      entry.set("receipt", s.receipt());
    }
    warm.ifPresent(w -> json.set("warm_workers", w.toJson()));
    Optional<WarmRecalls> shownWarm = warm;
    List<Step> shown = List.copyOf(steps);
    boolean ok = ok();
    @Nullable String hint = stop.orElse(null);
    return new CommandOutput(
        json,
        style -> {
          StringBuilder text = new StringBuilder();
          text.append(style.bold("LoopX demo")).append('\n');
          text.append("Runtime root: ")
              .append(SafeText.escaped(root.toString()))
              .append(kept ? " (kept)" : " (temporary: deleted at the end; keep it with --keep)")
              .append("\n");
          int n = 0;
          for (Step s : shown) {
            n++;
            text.append('\n')
                .append(style.bold("[" + n + "] " + s.title()))
                .append('\n')
                .append("$ ")
                .append(SafeText.escaped(s.command()))
                .append('\n')
                .append("exit ")
                .append(s.exitCode());
            text.append(s.asExpected() ? "" : " (expected " + s.expectedExitCode() + ")");
            text.append('\n');
            Views.receiptLines(s.receipt(), style)
                .lines()
                .forEach(l -> text.append("  ").append(l).append('\n'));
          }
          shownWarm.ifPresent(w -> text.append('\n').append(w.text(style)));
          text.append('\n');
          if (ok) {
            text.append(style.status("ok")).append(": every step exited as expected.\n");
          } else if (shown.stream().allMatch(Step::asExpected)) {
            text.append(style.error("Demo failed")).append(": ");
            text.append(SafeText.escaped(hint == null ? "see above" : hint)).append('\n');
          } else {
            Step last = shown.get(shown.size() - 1);
            text.append(style.error("Demo stopped"))
                .append(": step ")
                .append(shown.size())
                .append(" (")
                .append(last.title())
                .append(") exited ")
                .append(last.exitCode())
                .append(", expected ")
                .append(last.expectedExitCode())
                .append(".\n");
            if (hint != null) {
              text.append(SafeText.escaped(hint)).append('\n');
            }
          }
          return text.toString();
        });
  }

  private static void delete(Path root) {
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.delete(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, @Nullable IOException e)
                throws IOException {
              if (e != null) {
                throw e;
              }
              Files.delete(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw ioFailed("cannot delete the demo runtime root " + root, e);
    }
  }

  private static LoopxException ioFailed(String message, IOException e) {
    return new LoopxException(ErrorKind.IO_FAILED, message + ": " + e, e);
  }
}
