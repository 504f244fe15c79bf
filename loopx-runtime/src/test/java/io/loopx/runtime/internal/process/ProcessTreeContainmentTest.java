package io.loopx.runtime.internal.process;

import static io.loopx.runtime.internal.process.ProcessFixtures.ENV;
import static io.loopx.runtime.internal.process.ProcessFixtures.quickLauncher;
import static io.loopx.runtime.internal.process.ProcessFixtures.runningTasks;
import static io.loopx.runtime.internal.process.ProcessFixtures.writeScript;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.runtime.internal.state.Reliability;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Process containment over many real process trees: every launch through {@link OsProcessLauncher}
 * starts a provider script that forks branches, which fork leaves (some through an intermediate
 * that exits at once, so the leaf is orphaned and reparented), some branches nested one level
 * deeper, some members ignoring SIGTERM, some holding the provider's output pipes. Each process
 * records its own {@code /proc/PID/stat} line (pid, group, session, start time) before the provider
 * goes on, so the test knows the whole tree. The trees cycle through four endings: the provider
 * times out, crosses the stdout cap, crosses the stderr cap, or exits normally leaving its children
 * running.
 *
 * <p>After each launch returns, the outcome must be the expected one, every recorded process must
 * be in the provider's process group, and none may still run (no live process with the recorded pid
 * and start time, so a recycled pid cannot hide a survivor), and {@code /proc} must show no live
 * member of the group or session. At the end no launcher task is left running.
 *
 * <p>Counts: {@code -Dloopx.reliability.processTrees} (default 8), {@code
 * -Dloopx.reliability.parallelism} (trees at a time, default 2), {@code -Dloopx.reliability.seed}
 * (the shapes of the trees; default fixed). The profile {@code reliability} raises the count; the
 * tally is printed and written to {@code target/reliability/process-containment.txt}.
 */
class ProcessTreeContainmentTest {
  private static final long DEFAULT_SEED = 20261129L;
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final Duration SAFETY = Duration.ofSeconds(30);
  private static final int CAP = 64 * 1024;
  private static final String SLEEP = "sleep 120";

  /** How the provider of a tree ends. */
  enum Ending {
    TIMED_OUT(LaunchOutcome.TIMED_OUT),
    STDOUT_OVER_CAP(LaunchOutcome.STDOUT_OVER_LIMIT),
    STDERR_OVER_CAP(LaunchOutcome.STDERR_OVER_LIMIT),
    EXITED_LEAVING_CHILDREN(LaunchOutcome.EXITED);

    final LaunchOutcome outcome;

    Ending(LaunchOutcome outcome) {
      this.outcome = outcome;
    }
  }

  /** One branch of the provider: its own process plus leaves, orphans and a nested branch. */
  record Branch(boolean ignoresTerm, boolean holdsOutput, int leaves, int orphans, boolean nested) {
    int processes() {
      return 1 + leaves + orphans + (nested ? 2 : 0);
    }

    String arg() {
      return String.join(
          ":",
          ignoresTerm ? "ignore" : "term",
          holdsOutput ? "hold" : "detach",
          Integer.toString(leaves),
          Integer.toString(orphans),
          nested ? "nested" : "flat");
    }
  }

  /** The plan of one tree. */
  record Tree(int index, Ending ending, boolean leaderIgnoresTerm, List<Branch> branches) {
    int processes() {
      return 1 + branches.stream().mapToInt(Branch::processes).sum();
    }

    static Tree random(int index, Random random) {
      List<Branch> branches = new ArrayList<>();
      int count = 1 + random.nextInt(3);
      for (int b = 0; b < count; b++) {
        branches.add(
            new Branch(
                random.nextInt(3) == 0,
                random.nextBoolean(),
                random.nextInt(3),
                random.nextInt(2),
                random.nextInt(4) == 0));
      }
      return new Tree(
          index,
          Ending.values()[index % Ending.values().length],
          random.nextInt(3) == 0,
          List.copyOf(branches));
    }
  }

  /** A process a tree member recorded about itself: role, pid and its {@code /proc} stat line. */
  record Member(String role, long pid, long group, long session, long startTime) {
    /** Whether this very process (same pid and start time) still runs. */
    boolean running() {
      return stat(pid).filter(s -> s.live && s.startTime == startTime).isPresent();
    }
  }

  /** What one tree showed. */
  record Outcome(Tree tree, List<Member> members, long killed, long ignoringTerm, long orphans) {}

  @TempDir Path dir;

  private final OsProcessLauncher launcher = quickLauncher();

  @Test
  void noMemberOfAnyProcessTreeSurvivesItsLaunch() throws Exception {
    int trees = Reliability.count("processTrees", 8);
    long seed = Reliability.seed(DEFAULT_SEED);
    Path bin = Files.createDirectory(dir.resolve("bin"));
    Path provider = writeScripts(bin);
    Random random = new Random(seed);
    List<Callable<Outcome>> runs = new ArrayList<>();
    for (int i = 0; i < trees; i++) {
      Tree tree = Tree.random(i, random);
      runs.add(() -> runTree(provider, tree));
    }
    long started = System.nanoTime();
    List<Outcome> outcomes = Reliability.runAll(runs);
    double seconds = (System.nanoTime() - started) / 1e9;

    assertThat(outcomes).hasSize(trees);
    assertThat(runningTasks()).as("launcher tasks left").isZero();
    Map<Ending, Integer> byEnding = new EnumMap<>(Ending.class);
    outcomes.forEach(o -> byEnding.merge(o.tree().ending(), 1, Integer::sum));
    long processes = outcomes.stream().mapToLong(o -> o.members().size()).sum();
    long killed = outcomes.stream().mapToLong(Outcome::killed).sum();
    long ignoring = outcomes.stream().mapToLong(Outcome::ignoringTerm).sum();
    long orphans = outcomes.stream().mapToLong(Outcome::orphans).sum();
    long holding =
        outcomes.stream()
            .flatMap(o -> o.tree().branches().stream())
            .filter(Branch::holdsOutput)
            .count();
    Reliability.report(
        "process-containment.txt",
        List.of(
            String.format(
                Locale.ROOT,
                "process-containment: %d process trees (seed %d) ending %s; %d processes in them,"
                    + " %d of them killed by the launcher (%d ignoring SIGTERM, %d orphaned and"
                    + " reparented; %d branches holding the output pipes); survivors 0,"
                    + " launcher tasks left 0; wall %.1f s",
                trees,
                seed,
                byEnding,
                processes,
                killed,
                ignoring,
                orphans,
                holding,
                seconds)));
  }

  private Outcome runTree(Path provider, Tree tree) throws IOException {
    Path records = Files.createDirectory(dir.resolve("tree-" + tree.index()));
    List<String> argv = new ArrayList<>();
    argv.add(provider.toString());
    argv.add(records.toString());
    argv.add(Integer.toString(tree.processes()));
    argv.add(tree.ending().name());
    argv.add(tree.leaderIgnoresTerm() ? "ignore" : "term");
    tree.branches().forEach(b -> argv.add(b.arg()));
    LaunchRequest request =
        LaunchRequestBuilder.of(argv)
            .environment(ENV)
            .timeout(tree.ending() == Ending.TIMED_OUT ? TIMEOUT : SAFETY)
            .stdoutLimit(CAP)
            .stderrLimit(CAP)
            .build();

    LaunchResult result = launcher.launch(request);

    List<Member> members = members(records);
    List<Member> survivors = members.stream().filter(Member::running).toList();
    try {
      String context =
          String.format(
              Locale.ROOT,
              "tree %s: %s, stderr `%s`, recorded %s",
              tree,
              result,
              new String(result.stderr(), 0, Math.min(result.stderr().length, 2000), UTF_8),
              members);
      assertThat(survivors).as("survivors of %s", context).isEmpty();
      assertThat(result.outcome()).as(context).isEqualTo(tree.ending().outcome);
      if (tree.ending() == Ending.EXITED_LEAVING_CHILDREN) {
        assertThat(result.exitCode()).as(context).hasValue(0);
        assertThat(result.stdout()).asString(UTF_8).as(context).isEqualTo("done");
      }
      if (tree.ending() == Ending.TIMED_OUT) {
        // The deadline may come before a slow machine has started every process; the ones that
        // did start are checked like the others.
        assertThat(members.size())
            .as("processes recorded in %s", context)
            .isBetween(1, tree.processes());
      } else {
        assertThat(members).as("processes recorded in %s", context).hasSize(tree.processes());
      }
      List<Member> leaders = members.stream().filter(m -> m.role().equals("leader")).toList();
      assertThat(leaders).as(context).hasSize(1);
      long leader = leaders.get(0).pid();
      assertThat(members)
          .as("every process of %s is in the provider's group and session", context)
          .allMatch(m -> m.group() == leader && m.session() == leader);
      assertThat(ProcessGroup.members(leader).orElseThrow())
          .as("live members of group %d after %s", leader, context)
          .isEmpty();
    } finally {
      // Never leak a process into the rest of the build, whatever the verdict.
      survivors.forEach(s -> ProcessHandle.of(s.pid()).ifPresent(ProcessHandle::destroyForcibly));
    }
    boolean leaderExited = tree.ending() == Ending.EXITED_LEAVING_CHILDREN;
    long killed = members.size() - (leaderExited ? 1 : 0);
    long ignoring =
        (tree.leaderIgnoresTerm() && !leaderExited ? 1 : 0)
            + tree.branches().stream()
                .filter(Branch::ignoresTerm)
                .mapToInt(Branch::processes)
                .sum();
    long orphans = members.stream().filter(m -> m.role().equals("orphan")).count();
    return new Outcome(tree, members, killed, ignoring, orphans);
  }

  /**
   * Writes the scripts: {@code provider.sh RECORDS COUNT ENDING TERM BRANCH...} starts the
   * branches, waits until {@code COUNT} processes have recorded themselves, then ends as told;
   * {@code branch.sh} and {@code leaf.sh} record themselves and sleep. A process records itself by
   * copying its stat line to a hidden file and renaming it, so a record is complete once visible.
   */
  private static Path writeScripts(Path bin) throws IOException {
    String record =
        "cat /proc/$$/stat > \"$dir/.$role-$$\" && mv \"$dir/.$role-$$\" \"$dir/$role-$$\"";
    writeScript(
        bin.resolve("leaf.sh"),
        "dir=$1; role=$2",
        "[ \"$3\" = ignore ] && trap '' TERM",
        record,
        "exec " + SLEEP);
    writeScript(
        bin.resolve("branch.sh"),
        "dir=$1; role=branch; here=$(dirname \"$0\")",
        "IFS=: read term output leaves orphans nested <<EOF",
        "$2",
        "EOF",
        "[ \"$term\" = ignore ] && trap '' TERM",
        "i=0; while [ $i -lt \"$leaves\" ]; do",
        "  \"$here/leaf.sh\" \"$dir\" leaf \"$term\" &",
        "  i=$((i + 1))",
        "done",
        "i=0; while [ $i -lt \"$orphans\" ]; do",
        "  sh -c '\"$1\" \"$2\" orphan \"$3\" & exit 0' intermediate \"$here/leaf.sh\" \"$dir\""
            + " \"$term\"",
        "  i=$((i + 1))",
        "done",
        "if [ \"$nested\" = nested ]; then",
        "  \"$here/branch.sh\" \"$dir\" \"$term:$output:1:0:flat\" &",
        "fi",
        record,
        "exec " + SLEEP);
    return writeScript(
        bin.resolve("provider.sh"),
        "dir=$1; count=$2; ending=$3; role=leader; here=$(dirname \"$0\")",
        "leader_term=$4",
        "shift 4",
        record,
        "for spec in \"$@\"; do",
        "  case $spec in",
        "    *:hold:*) \"$here/branch.sh\" \"$dir\" \"$spec\" & ;;",
        "    *) \"$here/branch.sh\" \"$dir\" \"$spec\" > /dev/null 2>&1 & ;;",
        "  esac",
        "done",
        "# Only now: the branches must not inherit an ignored SIGTERM from the leader.",
        "[ \"$leader_term\" = ignore ] && trap '' TERM",
        "while [ \"$(ls \"$dir\" | wc -l)\" -lt \"$count\" ]; do sleep 0.01; done",
        "case $ending in",
        "  TIMED_OUT) exec " + SLEEP + " ;;",
        "  STDOUT_OVER_CAP) exec cat /dev/zero ;;",
        "  STDERR_OVER_CAP) exec cat /dev/zero >&2 ;;",
        "  *) printf done; exit 0 ;;",
        "esac");
  }

  /** Reads the records of one tree. */
  private static List<Member> members(Path records) {
    List<Member> members = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(records, "[!.]*")) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        int dash = name.lastIndexOf('-');
        Stat stat = parse(Files.readString(file, UTF_8)).orElseThrow();
        long pid = Long.parseLong(name.substring(dash + 1));
        assertThat(stat.pid).as("record %s", name).isEqualTo(pid);
        members.add(
            new Member(name.substring(0, dash), pid, stat.group, stat.session, stat.startTime));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.copyOf(members);
  }

  /** The fields of a {@code /proc/PID/stat} line this test needs. */
  private record Stat(long pid, boolean live, long group, long session, long startTime) {}

  private static Optional<Stat> stat(long pid) {
    try {
      return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat"), UTF_8));
    } catch (IOException e) {
      // No such process (any more).
      return Optional.empty();
    }
  }

  /**
   * Parses {@code pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
   * utime stime cutime cstime priority nice threads itrealvalue starttime ...}; the command name
   * may hold spaces and parentheses, so the fields are read after the last {@code ')'}.
   */
  private static Optional<Stat> parse(String line) {
    int open = line.indexOf(" (");
    int close = line.lastIndexOf(')');
    if (open < 0 || close < open) {
      return Optional.empty();
    }
    String[] f = line.substring(close + 2).trim().split(" ");
    if (f.length < 20) {
      return Optional.empty();
    }
    char state = f[0].charAt(0);
    return Optional.of(
        new Stat(
            Long.parseLong(line.substring(0, open)),
            state != 'Z' && state != 'X' && state != 'x',
            Long.parseLong(f[2]),
            Long.parseLong(f[3]),
            Long.parseLong(f[19])));
  }
}
