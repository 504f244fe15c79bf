package io.loopx.runtime.internal.process;

import static io.loopx.runtime.internal.process.ProcessFixtures.ENV;
import static io.loopx.runtime.internal.process.ProcessFixtures.runningTasks;
import static io.loopx.runtime.internal.process.ProcessFixtures.writeScript;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.loopx.runtime.internal.state.Reliability;
import io.loopx.runtime.spi.Containment;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchResult;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nothing of a provider outlives the call, for every containment mechanism this machine offers: the
 * process group always, cgroup v1 ({@code freezer} + {@code pids}) and cgroup v2 ({@code
 * cgroup.kill}) wherever the JVM's own cgroup is writable (as root on the CI machine: these cases
 * run there, they are not skipped). Every provider process records its own {@code /proc/self/stat}
 * line (pid and start time) in a log before it goes on, and the log doubles as the heartbeat: after
 * the call each recorded process must be gone (no live process with that pid and start time), and
 * the log must not grow any more. No sleep synchronises the test: the providers wait for their own
 * records, and the checks read {@code /proc} once the call returned.
 */
class ContainmentTest {
  private static final Duration SAFETY = Duration.ofSeconds(15);

  /** A hopper: every process records itself, forks its successor and exits at once. */
  private static final String HOPPER =
      "hop() { read -r s < /proc/self/stat; echo \"$s\" >> \"$1\"; hop \"$1\" & exit 0; }";

  @TempDir Path dir;

  /** The mechanisms to test: the process group, and each cgroup kind that can be used here. */
  static Stream<Enclosure> mechanisms() {
    List<Enclosure> all = new ArrayList<>();
    all.add(Enclosure.ProcessGroupOnly.INSTANCE);
    cgroupV1().ifPresent(all::add);
    cgroupV2().ifPresent(all::add);
    return all.stream();
  }

  /** The cgroup mechanisms usable here (none without a writable cgroup). */
  static Stream<Enclosure> cgroups() {
    return mechanisms().filter(e -> e != Enclosure.ProcessGroupOnly.INSTANCE);
  }

  /** The cgroup mechanisms with a {@code pids} limit usable here. */
  static Stream<Enclosure> pidsLimited() {
    return cgroups().filter(e -> !(e instanceof Enclosure.CgroupV2 v2) || v2.limitsPids());
  }

  private static Optional<Enclosure> cgroupV1() {
    Cgroups.Placement placement = Cgroups.locate();
    if (placement.freezer().isEmpty() || placement.pids().isEmpty()) {
      return Optional.empty();
    }
    return Cgroups.probeV1(placement.freezer().get(), placement.pids().get())
        .map(e -> (Enclosure) e);
  }

  private static Optional<Enclosure> cgroupV2() {
    return Cgroups.locate().v2().flatMap(Cgroups::probeV2).map(e -> (Enclosure) e);
  }

  @AfterEach
  void nothingIsLeftBehind() throws IOException {
    assertThat(runningTasks()).as("launcher tasks left").isZero();
    assertThat(callCgroups()).as("call cgroups left behind").isEmpty();
  }

  // ------------------------------------------------------------------ every mechanism

  @ParameterizedTest(name = "{0}")
  @MethodSource("mechanisms")
  void aPidHopperDoesNotOutliveANormalExit(Enclosure mechanism) throws IOException {
    Path log = dir.resolve("log");
    Path script =
        script(
            HOPPER,
            "( hop \"$1\" ) > /dev/null 2>&1 &",
            "while [ \"$(wc -l < \"$1\")\" -lt 5 ]; do sleep 0.01; done",
            "printf done");

    LaunchResult result = launcher(mechanism).launch(request(script, log).build());

    assertThat(result.exitedWithZero()).as(result.toString()).isTrue();
    assertThat(result.stdout()).asString(UTF_8).isEqualTo("done");
    assertNothingSurvived(log, 5);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mechanisms")
  void aSigtermIgnoringPidHopperDoesNotOutliveATimeout(Enclosure mechanism) throws IOException {
    Path log = dir.resolve("log");
    Path script =
        script(
            HOPPER,
            "( trap '' TERM; hop \"$1\" ) > /dev/null 2>&1 &",
            "while [ \"$(wc -l < \"$1\")\" -lt 5 ]; do sleep 0.01; done",
            "printf started",
            "sleep 30");

    LaunchResult result =
        launcher(mechanism).launch(request(script, log).timeout(Duration.ofMillis(700)).build());

    assertThat(result.outcome()).as(result.toString()).isEqualTo(LaunchOutcome.TIMED_OUT);
    assertThat(result.duration()).isLessThan(SAFETY);
    assertNothingSurvived(log, 5);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mechanisms")
  void aSigtermIgnoringForkStormDoesNotOutliveATimeout(Enclosure mechanism) throws IOException {
    Path log = dir.resolve("log");
    Path script =
        script(
            "trap '' TERM",
            "me() { read -r s < /proc/self/stat; echo \"$s\" >> \"$1\"; }",
            // Four workers: each starts ten long-lived children, then forks without pause.
            "worker() { me \"$1\"; i=0; while [ $i -lt 10 ]; do"
                + " ( me \"$1\"; exec sleep 30 ) & i=$((i + 1)); done;"
                + " while :; do ( me \"$1\" ); done; }",
            "for w in 1 2 3 4; do worker \"$1\" > /dev/null 2>&1 & done",
            "while [ \"$(wc -l < \"$1\")\" -lt 40 ]; do sleep 0.01; done",
            "printf storming",
            "sleep 30");

    LaunchResult result =
        launcher(mechanism).launch(request(script, log).timeout(Duration.ofSeconds(2)).build());

    assertThat(result.outcome()).as(result.toString()).isEqualTo(LaunchOutcome.TIMED_OUT);
    assertThat(result.duration()).isLessThan(SAFETY);
    // The timeout, not the storm's progress, ends the call: on a loaded machine fewer than the 40
    // long-lived children may be recorded by then. Each worker records itself before it forks, so
    // four records mean all four workers were forking; every recorded process must be gone.
    assertNothingSurvived(log, 4);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mechanisms")
  void aChildThatMovedToItsOwnProcessGroupDoesNotOutliveTheCall(Enclosure mechanism)
      throws IOException {
    Optional<Path> perl = LaunchSupport.findTool("perl");
    assumeTrue(perl.isPresent(), "perl is needed to call setpgid");
    Path log = dir.resolve("log");
    Path script =
        script(
            "perl -e '$SIG{TERM} = \"IGNORE\"; setpgrp(0, 0);"
                + " open(my $s, \"<\", \"/proc/self/stat\"); my $l = <$s>;"
                + " open(my $f, \">>\", $ARGV[0]); print $f $l; close($f); sleep 30'"
                + " \"$1\" > /dev/null 2>&1 &",
            "while [ ! -s \"$1\" ]; do sleep 0.01; done",
            "printf done");

    LaunchResult result = launcher(mechanism).launch(request(script, log).build());

    assertThat(result.exitedWithZero()).as(result.toString()).isTrue();
    List<Recorded> recorded = assertNothingSurvived(log, 1);
    assertThat(recorded.get(0).group()).isNotEqualTo(recorded.get(0).session());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mechanisms")
  void theProviderSeesExactlyTheRequestsEnvironmentArgvAndStdin(Enclosure mechanism)
      throws IOException {
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("PATH", "/usr/bin:/bin");
    // Names and values a shell would drop, reset or re-quote on its way to an exec.
    environment.put("a-b", "1");
    environment.put("x.y", "two words");
    environment.put("IFS", "zz");
    environment.put("PPID", "77");
    environment.put("OPTIND", "5");
    environment.put("LOOPX_ENV_0", "not=shifted");
    environment.put("NL", "line one\nline two $HOME `x` \"q\" 'q'");
    Path env = LaunchSupport.findTool("env").orElseThrow();

    LaunchResult printed =
        launcher(mechanism)
            .launch(
                LaunchRequestBuilder.of(List.of(env.toString(), "-0"))
                    .environment(environment)
                    .build());
    Path script = script("printf '%s\\0' \"$0\" \"$@\"", "cat");
    LaunchResult echoed =
        launcher(mechanism)
            .launch(
                LaunchRequestBuilder.of(List.of(script.toString(), "-i", "--", "A=B", "$1", ""))
                    .environment(ENV)
                    .stdin("stdin bytes\n".getBytes(UTF_8))
                    .build());

    Map<String, String> seen = new LinkedHashMap<>();
    for (String entry : new String(printed.stdout(), UTF_8).split("\0")) {
      int eq = entry.indexOf('=');
      seen.put(entry.substring(0, eq), entry.substring(eq + 1));
    }
    assertThat(printed.exitedWithZero()).as(printed.toString()).isTrue();
    assertThat(seen).isEqualTo(environment);
    assertThat(echoed.exitedWithZero()).as(echoed.toString()).isTrue();
    assertThat(new String(echoed.stdout(), UTF_8))
        .isEqualTo(script + "\0-i\0--\0A=B\0$1\0\0stdin bytes\n");
  }

  // ------------------------------------------------------------------ cgroups only

  @ParameterizedTest(name = "{0}")
  @MethodSource("cgroups")
  void aSetsidDoubleForkDoesNotOutliveACgroup(Enclosure mechanism) throws IOException {
    Path log = dir.resolve("log");
    Path script =
        script(
            "setsid sh -c '( trap \"\" TERM; read -r s < /proc/self/stat; echo \"$s\" >> \"$1\";"
                + " exec sleep 30 ) > /dev/null 2>&1 &' sh \"$1\"",
            "while [ ! -s \"$1\" ]; do sleep 0.01; done",
            "printf done");

    LaunchResult result = launcher(mechanism).launch(request(script, log).build());

    assertThat(result.exitedWithZero()).as(result.toString()).isTrue();
    assertNothingSurvived(log, 1);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pidsLimited")
  void aForkBombIsStoppedByThePidsLimitAndDoesNotOutliveTheCall(Enclosure mechanism)
      throws IOException {
    Path log = dir.resolve("log");
    Path script =
        script(
            "me() { read -r s < /proc/self/stat; echo \"$s\" >> \"$1\"; }",
            "bomb() { me \"$1\"; bomb \"$1\" & bomb \"$1\"; }",
            "bomb \"$1\"");
    OsProcessLauncher launcher =
        OsProcessLauncher.builder()
            .terminationGrace(Duration.ofMillis(300))
            .drainTimeout(Duration.ofSeconds(2))
            .enclosure(mechanism)
            .pidsLimit(32)
            .build();

    LaunchResult result =
        launcher.launch(request(script, log).timeout(Duration.ofSeconds(1)).build());

    // The leader's own failed fork may end it (dash exits on it) or the deadline comes first.
    assertThat(result.outcome())
        .as(result.toString())
        .isIn(LaunchOutcome.EXITED, LaunchOutcome.TIMED_OUT);
    assertThat(new String(result.stderr(), UTF_8).toLowerCase(Locale.ROOT))
        .as("forks failed at the limit")
        .contains("fork");
    assertNothingSurvived(log, 1);
  }

  @Test
  void aCallWhoseCgroupCannotBeCreatedDoesNotStartAndLeavesNothing() throws IOException {
    // Plain directories, not a cgroup file system: the call's pids.max cannot be written.
    Path freezer = Files.createDirectory(dir.resolve("freezer"));
    Path pids = Files.createDirectory(dir.resolve("pids"));
    Path marker = dir.resolve("ran");
    Path script = script("echo ran > \"$1\"");

    LaunchResult result =
        launcher(new Enclosure.CgroupV1(freezer, pids)).launch(request(script, marker).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.NOT_STARTED);
    assertThat(result.startFailure().orElseThrow()).contains("cgroup_v1");
    assertThat(Files.size(marker)).as("the provider never ran").isZero();
    try (Stream<Path> left = Stream.concat(Files.list(freezer), Files.list(pids))) {
      assertThat(left).as("directories left").isEmpty();
    }
  }

  // ------------------------------------------------------------------ the runtime's choice

  @Test
  void asRootWithAWritableFreezerHierarchyTheRuntimeUsesACgroup() {
    boolean root = "root".equals(System.getProperty("user.name"));
    boolean linux = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    assumeTrue(
        linux && root && Files.isWritable(Path.of("/sys/fs/cgroup/freezer")),
        "only a root JVM on Linux with a writable freezer hierarchy must choose a cgroup");

    Optional<Containment> chosen = OsProcessLauncher.create().containment();

    assertThat(chosen).isPresent();
    assertThat(chosen.get()).isIn(Containment.CGROUP_V1, Containment.CGROUP_V2);
  }

  @Test
  void withoutAWritableCgroupTheRuntimeUsesTheProcessGroup() {
    Cgroups.Placement none =
        new Cgroups.Placement(Optional.empty(), Optional.empty(), Optional.empty());

    assertThat(Cgroups.choose(none)).isEqualTo(Enclosure.ProcessGroupOnly.INSTANCE);
    assertThat(
            Cgroups.choose(
                    new Cgroups.Placement(
                        Optional.of(dir), Optional.of(dir), Optional.of(dir.resolve("missing"))))
                .kind())
        .isEqualTo(Containment.PROCESS_GROUP);
  }

  @Test
  void theCgroupsOfTheJvmAreReadFromMountinfoAndProcSelfCgroup() throws IOException {
    Path root = Files.createDirectories(dir.resolve("cg root"));
    String escaped = root.toString().replace(" ", "\\040");
    Files.createDirectories(root.resolve("freezer/a"));
    Files.createDirectories(root.resolve("pids"));
    Files.createDirectories(root.resolve("unified/u/v"));
    Cgroups.Placement placement =
        Cgroups.locate(
            List.of(
                "37 31 0:34 / " + escaped + "/freezer rw - cgroup cgroup rw,freezer",
                // Mounted from inside the hierarchy (a cgroup namespace): the root is /x.
                "39 31 0:36 /x " + escaped + "/pids rw - cgroup cgroup rw,pids",
                "41 31 0:38 / " + escaped + "/unified rw - cgroup2 cgroup2 rw",
                "42 31 0:39 / " + escaped + "/cpu rw - cgroup cgroup rw,cpu"),
            List.of("8:pids:/x", "6:freezer:/a", "1:cpu:/", "0::/u/v"));

    assertThat(placement.freezer()).contains(root.resolve("freezer/a"));
    assertThat(placement.pids()).contains(root.resolve("pids"));
    assertThat(placement.v2()).contains(root.resolve("unified/u/v"));
  }

  // ------------------------------------------------------------------ soak

  /**
   * The soak: {@code -Dloopx.reliability.containmentCalls} calls (default 6; the {@code
   * reliability} profile runs 600), round-robin over the mechanisms this machine offers and over
   * three providers: a pid hopper that exits normally, a SIGTERM-ignoring pid hopper stopped by the
   * timeout, and a SIGTERM-ignoring fork storm stopped by the timeout. Every recorded process of
   * every call must be gone when the call returns. A call stopped by its timeout before its
   * provider got going (a loaded machine) is made again with a longer timeout, and counted.
   */
  @Test
  void soakPidHoppersAndForkStormsLeaveNoSurvivor() throws IOException {
    int calls = Reliability.count("containmentCalls", 6);
    List<Enclosure> enclosures = mechanisms().toList();
    Path hopExit =
        writeScript(
            dir.resolve("hop-exit"),
            HOPPER,
            "( hop \"$1\" ) > /dev/null 2>&1 &",
            "while [ \"$(wc -l < \"$1\")\" -lt 5 ]; do sleep 0.01; done",
            "printf done");
    Path hopTimeout =
        writeScript(
            dir.resolve("hop-timeout"),
            HOPPER,
            "( trap '' TERM; hop \"$1\" ) > /dev/null 2>&1 &",
            "while [ \"$(wc -l < \"$1\")\" -lt 5 ]; do sleep 0.01; done",
            "sleep 30");
    Path storm =
        writeScript(
            dir.resolve("storm"),
            "trap '' TERM",
            "me() { read -r s < /proc/self/stat; echo \"$s\" >> \"$1\"; }",
            "worker() { me \"$1\"; while :; do ( me \"$1\" ); done; }",
            "for w in 1 2 3; do worker \"$1\" > /dev/null 2>&1 & done",
            "while [ \"$(wc -l < \"$1\")\" -lt 20 ]; do sleep 0.01; done",
            "sleep 30");
    Map<String, Integer> perMechanism = new LinkedHashMap<>();
    long processes = 0;
    int lengthened = 0;
    for (int i = 0; i < calls; i++) {
      Enclosure mechanism = enclosures.get(i % enclosures.size());
      int kind = (i / enclosures.size()) % 3;
      int least = kind == 2 ? 20 : 5;
      // A call stopped by its timeout must have got going first: on a machine loaded enough that a
      // provider records fewer than `least` processes in 600 ms, the call is made again with twice
      // the time (at most 4.8 s). Every attempt is checked for survivors all the same.
      for (Duration timeout = Duration.ofMillis(600); ; timeout = timeout.multipliedBy(2)) {
        Path log = dir.resolve("soak-" + i + "-" + timeout.toMillis());
        LaunchRequestBuilder request =
            kind == 0
                ? request(hopExit, log)
                : request(kind == 1 ? hopTimeout : storm, log).timeout(timeout);
        LaunchResult result = launcher(mechanism).launch(request.build());
        assertThat(result.outcome())
            .as("call %d (%s): %s", i, mechanism, result)
            .isEqualTo(kind == 0 ? LaunchOutcome.EXITED : LaunchOutcome.TIMED_OUT);
        boolean lengthen = kind != 0 && records(log).size() < least && timeout.toMillis() < 4_800;
        processes += assertNothingSurvived(log, lengthen ? 0 : least).size();
        if (!lengthen) {
          break;
        }
        lengthened++;
      }
      perMechanism.merge(mechanism.kind().wireName(), 1, Integer::sum);
    }
    Reliability.report(
        "containment-soak.txt",
        List.of(
            "pid-hopper and fork-storm calls: " + calls + " " + perMechanism,
            "calls made again with a longer timeout (too few processes recorded): " + lengthened,
            "provider processes recorded: " + processes,
            "survivors: 0"));
  }

  // ------------------------------------------------------------------ helpers

  /** What one provider process recorded about itself. */
  record Recorded(long pid, long group, long session, long startTime) {
    boolean running() {
      return readStat(pid).filter(s -> s.live() && s.startTime() == startTime).isPresent();
    }
  }

  private record Stat(boolean live, long group, long session, long startTime) {}

  /**
   * Asserts that at least {@code least} processes were recorded, none of them still runs, and the
   * log (the heartbeat) no longer grows; returns the records.
   */
  private static List<Recorded> assertNothingSurvived(Path log, int least) throws IOException {
    List<Recorded> recorded = records(log);
    assertThat(recorded.size()).as("processes recorded").isGreaterThanOrEqualTo(least);
    List<Recorded> survivors = recorded.stream().filter(Recorded::running).toList();
    assertThat(survivors).as("recorded processes still running").isEmpty();
    // Every recorded process is gone, so a later line could only come from an unrecorded one.
    assertThat(records(log)).as("heartbeat after the checks").hasSameSizeAs(recorded);
    return recorded;
  }

  private static List<Recorded> records(Path log) throws IOException {
    List<Recorded> out = new ArrayList<>();
    for (String line : Files.readAllLines(log, UTF_8)) {
      int close = line.lastIndexOf(')');
      if (close < 0) {
        continue; // a line cut by the kill
      }
      String[] fields = line.substring(close + 2).trim().split(" ");
      if (fields.length < 20) {
        continue;
      }
      out.add(
          new Recorded(
              Long.parseLong(line.substring(0, line.indexOf(' '))),
              Long.parseLong(fields[2]),
              Long.parseLong(fields[3]),
              Long.parseLong(fields[19])));
    }
    return out;
  }

  /** Reads {@code /proc/PID/stat}: state, group, session and start time (field 22). */
  private static Optional<Stat> readStat(long pid) {
    String line;
    try {
      line = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), UTF_8);
    } catch (IOException e) {
      return Optional.empty();
    }
    String[] fields = line.substring(line.lastIndexOf(')') + 2).trim().split(" ");
    char state = fields[0].charAt(0);
    return Optional.of(
        new Stat(
            state != 'Z' && state != 'X',
            Long.parseLong(fields[2]),
            Long.parseLong(fields[3]),
            Long.parseLong(fields[19])));
  }

  /** The {@code loopx-<this pid>-*} directories under the JVM's own cgroups. */
  private static List<Path> callCgroups() throws IOException {
    Cgroups.Placement placement = Cgroups.locate();
    List<Path> found = new ArrayList<>();
    String prefix = CallCgroup.name("");
    for (Optional<Path> own : List.of(placement.v2(), placement.freezer(), placement.pids())) {
      if (own.isEmpty()) {
        continue;
      }
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(own.get(), prefix + "*")) {
        entries.forEach(found::add);
      }
    }
    return found;
  }

  private static OsProcessLauncher launcher(Enclosure mechanism) {
    return OsProcessLauncher.builder()
        .terminationGrace(Duration.ofMillis(300))
        .drainTimeout(Duration.ofSeconds(2))
        .enclosure(mechanism)
        .build();
  }

  private Path script(String... lines) throws IOException {
    return writeScript(dir.resolve("provider"), lines);
  }

  private static LaunchRequestBuilder request(Path script, Path log) throws IOException {
    Files.write(log, new byte[0]);
    return LaunchRequestBuilder.of(List.of(script.toString(), log.toString()))
        .environment(ENV)
        .timeout(Duration.ofSeconds(10));
  }
}
