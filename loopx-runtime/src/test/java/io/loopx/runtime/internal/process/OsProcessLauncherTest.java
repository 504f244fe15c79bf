package io.loopx.runtime.internal.process;

import static io.loopx.runtime.internal.process.ProcessFixtures.ENV;
import static io.loopx.runtime.internal.process.ProcessFixtures.gone;
import static io.loopx.runtime.internal.process.ProcessFixtures.quickLauncher;
import static io.loopx.runtime.internal.process.ProcessFixtures.runnerThreads;
import static io.loopx.runtime.internal.process.ProcessFixtures.runningTasks;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchResult;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real processes on the real file system: {@code /bin/sh} scripts written by each test. Every test
 * also proves (in {@link #noRunnerTaskOutlivesTheCall()}) that no launcher task survives it.
 */
class OsProcessLauncherTest {
  private static final Duration SAFETY = Duration.ofSeconds(10);

  @TempDir Path dir;

  private final OsProcessLauncher launcher = quickLauncher();

  @AfterEach
  void noRunnerTaskOutlivesTheCall() {
    assertThat(runningTasks()).isZero();
  }

  // ---------------------------------------------------------------- timeout and group

  @Test
  void timeoutKillsTheWholeGroupBeforeAGrandchildWritesItsMarker() throws IOException {
    Path marker = dir.resolve("marker");
    Path childPid = dir.resolve("child.pid");
    Path stat = dir.resolve("leader.stat");
    Path script =
        script(
            "( sleep 1; echo late > \"$1\" ) &",
            "echo $! > \"$2\"",
            "cat /proc/$$/stat > \"$3\"",
            "printf started",
            "sleep 10");

    LaunchResult result =
        launcher.launch(
            request(script, marker.toString(), childPid.toString(), stat.toString())
                .timeout(Duration.ofMillis(500))
                .build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.TIMED_OUT);
    assertThat(result.exitCode()).isEmpty();
    assertThat(result.stdout()).asString(UTF_8).isEqualTo("started");
    assertThat(result.duration()).isLessThan(SAFETY);
    long grandchild = readPid(childPid);
    long leader = leaderOf(stat);
    // Nothing of the group is alive when the call returns, so nothing can write the marker later.
    assertThat(gone(grandchild)).as("grandchild %s is gone", grandchild).isTrue();
    assertThat(ProcessGroup.members(leader).orElseThrow()).isEmpty();
    assertThat(marker).doesNotExist();
  }

  @Test
  void providerLeadsItsOwnProcessGroupAndSession() throws IOException {
    Path stat = dir.resolve("leader.stat");
    Path script = script("cat /proc/$$/stat > \"$1\"", "echo $$");

    LaunchResult result = launcher.launch(request(script, stat.toString()).build());

    assertThat(result.exitedWithZero()).isTrue();
    long pid = Long.parseLong(new String(result.stdout(), UTF_8).trim());
    ProcessGroup.Stat leader = ProcessGroup.parseStat(Files.readString(stat)).orElseThrow();
    assertThat(leader.group()).isEqualTo(pid);
    assertThat(leader.session()).isEqualTo(pid);
    ProcessGroup.Stat self = ProcessGroup.readStat(Path.of("/proc/self")).orElseThrow();
    assertThat(leader.group()).isNotEqualTo(self.group());
  }

  @Test
  void withoutTheKillCommandTheGroupIsStillTerminatedMemberByMember() throws IOException {
    OsProcessLauncher noKill =
        OsProcessLauncher.builder()
            .terminationGrace(Duration.ofMillis(300))
            .killCommand(Optional.empty())
            .build();
    Path marker = dir.resolve("marker");
    Path childPid = dir.resolve("child.pid");
    Path script = script("( sleep 1; echo late > \"$1\" ) &", "echo $! > \"$2\"", "sleep 10");

    LaunchResult result =
        noKill.launch(
            request(script, marker.toString(), childPid.toString())
                .timeout(Duration.ofMillis(400))
                .build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.TIMED_OUT);
    assertThat(gone(readPid(childPid))).isTrue();
    assertThat(marker).doesNotExist();
  }

  // ---------------------------------------------------------------- caps

  @Test
  void endlessStdoutIsStoppedAtTheCapAndTheGroupKilled() throws IOException {
    Path stat = dir.resolve("leader.stat");
    Path script = script("cat /proc/$$/stat > \"$1\"", "exec cat /dev/zero");

    LaunchResult result =
        launcher.launch(request(script, stat.toString()).stdoutLimit(100_000).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.STDOUT_OVER_LIMIT);
    assertThat(result.exitCode()).isEmpty();
    assertThat(result.stdout()).hasSize(100_001);
    assertThat(result.duration()).isLessThan(SAFETY);
    assertThat(ProcessGroup.members(leaderOf(stat)).orElseThrow()).isEmpty();
  }

  @Test
  void endlessStderrIsStoppedAtTheCapAndTheGroupKilled() throws IOException {
    Path stat = dir.resolve("leader.stat");
    Path script = script("cat /proc/$$/stat > \"$1\"", "exec cat /dev/zero >&2");

    LaunchResult result =
        launcher.launch(request(script, stat.toString()).stderrLimit(100_000).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.STDERR_OVER_LIMIT);
    assertThat(result.stderr()).hasSize(100_001);
    assertThat(result.duration()).isLessThan(SAFETY);
    assertThat(ProcessGroup.members(leaderOf(stat)).orElseThrow()).isEmpty();
  }

  @ParameterizedTest(name = "{0} bytes on {1} with limit 10 -> {2}")
  @CsvSource({
    "10, 1, EXITED",
    "11, 1, STDOUT_OVER_LIMIT",
    "10, 2, EXITED",
    "11, 2, STDERR_OVER_LIMIT",
    "0, 1, EXITED"
  })
  void aStreamOfExactlyTheLimitIsKeptAndOneMoreByteIsOver(int bytes, int fd, LaunchOutcome expected)
      throws IOException {
    Path script = script("head -c \"$1\" /dev/zero | tr '\\0' x >&" + fd);

    LaunchResult result =
        launcher.launch(
            request(script, Integer.toString(bytes)).stdoutLimit(10).stderrLimit(10).build());

    assertThat(result.outcome()).isEqualTo(expected);
    byte[] stream = fd == 1 ? result.stdout() : result.stderr();
    assertThat(stream).isEqualTo("x".repeat(bytes).getBytes(UTF_8));
    assertThat(result.exitCode().isPresent()).isEqualTo(expected == LaunchOutcome.EXITED);
  }

  @Test
  void aLimitOfZeroRejectsAnySingleByte() throws IOException {
    LaunchResult result = launcher.launch(request(script("printf x")).stdoutLimit(0).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.STDOUT_OVER_LIMIT);
    assertThat(result.stdout()).containsExactly('x');
  }

  @Test
  void whenBothStreamsCrossTheirCapsStdoutIsReported() throws IOException {
    // TERM is ignored, so both writes happen even though the stderr crossing stops the run first.
    Path script = script("trap '' TERM", "printf 0123456789A >&2", "printf 0123456789A");

    LaunchResult result = launcher.launch(request(script).stdoutLimit(10).stderrLimit(10).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.STDOUT_OVER_LIMIT);
    assertThat(result.stdout()).hasSize(11);
    assertThat(result.stderr()).hasSize(11);
  }

  @Test
  void aCapCrossedAfterTheDeadlineStillReportsTheTimeout() throws IOException {
    // The overflow is written by the TERM handler, i.e. only after LoopX decided on the timeout.
    Path script = script("trap 'printf 0123456789A; exit 0' TERM", "sleep 10");

    LaunchResult result =
        launcher.launch(request(script).stdoutLimit(10).timeout(Duration.ofMillis(400)).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.TIMED_OUT);
    assertThat(result.stdout()).hasSize(11);
  }

  @Test
  void aCapCrossedBeforeTheDeadlineIsReportedEvenIfTermIsIgnoredPastIt() throws IOException {
    OsProcessLauncher slowGrace =
        OsProcessLauncher.builder().terminationGrace(Duration.ofMillis(1000)).build();
    Path script = script("trap '' TERM", "printf 0123456789A", "sleep 10");

    LaunchResult result =
        slowGrace.launch(request(script).stdoutLimit(10).timeout(Duration.ofMillis(600)).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.STDOUT_OVER_LIMIT);
    assertThat(result.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(1000));
  }

  // ---------------------------------------------------------------- leftovers after exit

  @Test
  void aBackgroundChildLeftAfterANormalExitIsTerminated() throws IOException {
    Path marker = dir.resolve("marker");
    Path childPid = dir.resolve("child.pid");
    Path stat = dir.resolve("leader.stat");
    // The child does not hold the output pipes: only the group scan can find it.
    Path script =
        script(
            "( sleep 1; echo late > \"$1\" ) > /dev/null 2>&1 < /dev/null &",
            "echo $! > \"$2\"",
            "cat /proc/$$/stat > \"$3\"",
            "printf done");

    LaunchResult result =
        launcher.launch(
            request(script, marker.toString(), childPid.toString(), stat.toString()).build());

    assertThat(result.exitedWithZero()).isTrue();
    assertThat(result.stdout()).asString(UTF_8).isEqualTo("done");
    assertThat(result.duration()).isLessThan(Duration.ofSeconds(1));
    assertThat(gone(readPid(childPid))).isTrue();
    assertThat(ProcessGroup.members(leaderOf(stat)).orElseThrow()).isEmpty();
    assertThat(marker).doesNotExist();
  }

  @Test
  void aBackgroundChildHoldingStdoutDoesNotKeepTheRunAlive() throws IOException {
    Path childPid = dir.resolve("child.pid");
    Path script = script("sleep 10 &", "echo $! > \"$1\"", "printf done");

    LaunchResult result = launcher.launch(request(script, childPid.toString()).build());

    assertThat(result.exitedWithZero()).isTrue();
    assertThat(result.stdout()).asString(UTF_8).isEqualTo("done");
    assertThat(result.duration()).isLessThan(Duration.ofSeconds(2));
    assertThat(gone(readPid(childPid))).isTrue();
  }

  @Test
  void aDescendantThatOnlyChangedItsGroupIsFoundThroughTheSession() throws IOException {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/perl")), "perl is needed to call setpgid");
    Path marker = dir.resolve("marker");
    Path childPid = dir.resolve("child.pid");
    Path script =
        script(
            "perl -e 'setpgrp(0, 0); open(my $p, \">\", $ARGV[1]); print $p $$; close($p);"
                + " sleep 1; open(my $m, \">\", $ARGV[0]);' \"$1\" \"$2\" > /dev/null 2>&1 &",
            "while [ ! -s \"$2\" ]; do sleep 0.01; done",
            // A member left in the group too, so the group signal alone would reach someone.
            "sleep 5 > /dev/null 2>&1 &");

    LaunchResult result =
        launcher.launch(request(script, marker.toString(), childPid.toString()).build());

    assertThat(result.exitedWithZero()).isTrue();
    long pid = readPid(childPid);
    assertThat(gone(pid)).as("descendant %s in its own group is gone", pid).isTrue();
    assertThat(marker).doesNotExist();
  }

  @Test
  void aDescendantThatCallsSetsidEscapesTheProcessGroupButTheCallStillReturnsWithinTheDrainBound()
      throws IOException {
    // Only the process-group fallback has this limit; a cgroup holds it (ContainmentTest).
    OsProcessLauncher shortDrain =
        OsProcessLauncher.builder()
            .drainTimeout(Duration.ofMillis(300))
            .enclosure(Enclosure.ProcessGroupOnly.INSTANCE)
            .build();
    Path escapee = dir.resolve("escapee.pid");
    Path script =
        script(
            "setsid sh -c 'echo $$ > \"$1\"; exec sleep 30' sh \"$1\" &",
            "while [ ! -s \"$1\" ]; do sleep 0.01; done",
            "printf done");
    try {
      LaunchResult result = shortDrain.launch(request(script, escapee.toString()).build());

      assertThat(result.exitedWithZero()).isTrue();
      assertThat(result.duration()).isLessThan(Duration.ofSeconds(3));
      // The documented limit: it is in another session, so it is still running...
      assertThat(gone(readPid(escapee))).isFalse();
    } finally {
      // ...and holds stdout, so the drain task ends only when the escapee does.
      if (Files.exists(escapee)) {
        ProcessHandle.of(readPid(escapee)).ifPresent(ProcessHandle::destroyForcibly);
      }
      assertThat(eventually(() -> runningTasks() == 0)).isTrue();
    }
  }

  // ---------------------------------------------------------------- exit codes

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "'exit 0', 0",
    "'exit 3', 3",
    "'kill -KILL $$', 137",
    "'kill -TERM $$', 143",
    "'kill -USR1 $$', 138"
  })
  void exitCodesAreTheProcessOwnOr128PlusTheSignal(String line, int expected) throws IOException {
    LaunchResult result = launcher.launch(request(script(line)).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.EXITED);
    assertThat(result.exitCode()).hasValue(expected);
    assertThat(result.startFailure()).isEmpty();
  }

  // ---------------------------------------------------------------- could not start

  @Test
  void aMissingExecutableIsAResultNotAnException() {
    LaunchResult result =
        launcher.launch(
            LaunchRequestBuilder.of(List.of(dir.resolve("no-such-program").toString())).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.NOT_STARTED);
    assertThat(result.startFailure().orElseThrow()).contains("no-such-program");
    assertThat(result.exitCode()).isEmpty();
    assertThat(result.stdout()).isEmpty();
  }

  @Test
  void aProgramNotOnPathCannotStart() {
    LaunchResult result =
        launcher.launch(
            LaunchRequestBuilder.of(List.of("loopx-no-such-program")).environment(ENV).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.NOT_STARTED);
    assertThat(result.startFailure().orElseThrow())
        .contains("`loopx-no-such-program` is not on PATH `/usr/bin:/bin`");
  }

  @Test
  void aFileThatIsNotExecutableCannotStart() throws IOException {
    Path plain = Files.writeString(dir.resolve("plain.sh"), "#!/bin/sh\nexit 0\n");

    LaunchResult result =
        launcher.launch(LaunchRequestBuilder.of(List.of(plain.toString())).build());

    assertThat(result.startFailure().orElseThrow()).contains("is not executable");
  }

  @Test
  void aMissingWorkingDirectoryCannotStart() throws IOException {
    LaunchResult result =
        launcher.launch(request(script("exit 0")).workingDirectory(dir.resolve("nope")).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.NOT_STARTED);
    assertThat(result.startFailure().orElseThrow()).contains("is not a directory");
  }

  @Test
  void aWorkingDirectoryOnAnotherFileSystemCannotStart() throws IOException {
    try (FileSystem jimfs = Jimfs.newFileSystem(Configuration.unix())) {
      Path elsewhere = Files.createDirectories(jimfs.getPath("/work"));

      LaunchResult result =
          launcher.launch(request(script("exit 0")).workingDirectory(elsewhere).build());

      assertThat(result.startFailure().orElseThrow()).contains("not on the default file system");
    }
  }

  @Test
  void withoutSetsidNothingStarts() throws IOException {
    OsProcessLauncher noSetsid =
        OsProcessLauncher.builder().setsidCommand(Optional.empty()).build();

    LaunchResult result = noSetsid.launch(request(script("exit 0")).build());

    assertThat(result.startFailure().orElseThrow())
        .isEqualTo(
            "`setsid` (util-linux) was not found; it gives the process its own process group");
    assertThat(noSetsid.startLongLived(request(script("exit 0")).build()))
        .isEqualTo(new LongLivedProcess.Start.NotStarted(result.startFailure().orElseThrow()));
  }

  @Test
  void aWorkerIsRefusedInTheSameWordsAsACall() throws IOException {
    Path provider = script("exit 0");
    for (LaunchRequestBuilder request :
        List.of(
            request(provider, "bad\uD800"),
            LaunchRequestBuilder.of(List.of("no-such-program-here")).environment(ENV))) {
      LaunchResult call = launcher.launch(request.build());
      LongLivedProcess.Start worker = launcher.startLongLived(request.build());

      assertThat(call.outcome()).isEqualTo(LaunchOutcome.NOT_STARTED);
      assertThat(worker)
          .isEqualTo(new LongLivedProcess.Start.NotStarted(call.startFailure().orElseThrow()));
    }
  }

  @Test
  void anArgumentThatCannotBeEncodedIsRefusedInsteadOfMangled() throws IOException {
    LaunchResult result = launcher.launch(request(script("exit 0"), "bad\uD800").build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.NOT_STARTED);
    assertThat(result.startFailure().orElseThrow()).contains("platform encoding");
  }

  // ---------------------------------------------------------------- stdin, env, cwd

  @Test
  void aProviderThatNeverReadsALargeStdinDoesNotHangTheRunner() throws IOException {
    byte[] large = new byte[4 * 1024 * 1024];

    LaunchResult result = launcher.launch(request(script("exit 5")).stdin(large).build());

    assertThat(result.exitCode()).hasValue(5);
    assertThat(result.duration()).isLessThan(SAFETY);
  }

  @Test
  void aProviderThatNeitherReadsStdinNorExitsTimesOut() throws IOException {
    byte[] large = new byte[4 * 1024 * 1024];

    LaunchResult result =
        launcher.launch(
            request(script("sleep 10")).stdin(large).timeout(Duration.ofMillis(300)).build());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.TIMED_OUT);
    assertThat(result.duration()).isLessThan(SAFETY);
  }

  @Test
  void stdinArrivesExactlyAndBinarySafe() throws IOException {
    byte[] input = new byte[300_000];
    for (int i = 0; i < input.length; i++) {
      input[i] = (byte) (i * 31 + i / 256);
    }

    LaunchResult result = launcher.launch(request(script("exec cat")).stdin(input).build());

    assertThat(result.exitedWithZero()).isTrue();
    assertThat(result.stdout()).isEqualTo(input);
  }

  @Test
  void theEnvironmentIsExactlyTheRequestedOne() throws IOException {
    Path script = script("printf '%s|%s|%s' \"$LOOPX_EXTENSION_ID\" \"${HOME-unset}\" \"$PATH\"");

    LaunchResult result =
        launcher.launch(
            request(script)
                .environment(Map.of("PATH", "/usr/bin:/bin", "LOOPX_EXTENSION_ID", "text-stats"))
                .build());

    assertThat(result.stdout()).asString(UTF_8).isEqualTo("text-stats|unset|/usr/bin:/bin");
  }

  @Test
  void theWorkingDirectoryIsApplied() throws IOException {
    Path work = Files.createDirectory(dir.resolve("work"));

    LaunchResult result = launcher.launch(request(script("pwd -P")).workingDirectory(work).build());

    assertThat(result.stdout()).asString(UTF_8).isEqualTo(work.toRealPath() + "\n");
  }

  @Test
  void aRelativeProgramIsResolvedAgainstTheWorkingDirectory() throws IOException {
    script("printf relative");

    LaunchResult result =
        launcher.launch(
            LaunchRequestBuilder.of(List.of("./provider.sh"))
                .environment(ENV)
                .workingDirectory(dir)
                .build());

    assertThat(result.stdout()).asString(UTF_8).isEqualTo("relative");
  }

  @Test
  void aProgramIsFoundOnTheRequestPath() throws IOException {
    script("printf found");

    LaunchResult result =
        launcher.launch(
            LaunchRequestBuilder.of(List.of("provider.sh"))
                .environment(Map.of("PATH", dir + ":/usr/bin:/bin"))
                .build());

    assertThat(result.stdout()).asString(UTF_8).isEqualTo("found");
  }

  // ---------------------------------------------------------------- threads and interrupts

  @Test
  void oneLauncherRunsManyProcessesConcurrently() throws Exception {
    Path script = script("sleep 0.1", "printf '%s' \"$1\"");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<LaunchResult>> futures = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        String word = "run-" + i;
        futures.add(pool.submit(() -> launcher.launch(request(script, word).build())));
      }
      for (int i = 0; i < 4; i++) {
        LaunchResult result = futures.get(i).get(SAFETY.toSeconds(), TimeUnit.SECONDS);
        assertThat(result.stdout()).asString(UTF_8).isEqualTo("run-" + i);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anInterruptBeforeTheLaunchStartsNothingAndIsRestored() throws IOException {
    Path marker = dir.resolve("ran");
    Path script = script("echo ran > \"$1\"", "printf finished");
    Thread.currentThread().interrupt();

    LaunchResult result = launcher.launch(request(script, marker.toString()).build());
    boolean interrupted = Thread.interrupted();

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.CANCELLED);
    assertThat(result.exitCode()).isEmpty();
    assertThat(interrupted).isTrue();
    assertThat(marker).doesNotExist();
  }

  @Test
  void anInterruptDuringTheRunCancelsItKillsTheWholeTreeAndIsRestored() throws Exception {
    Path childPid = dir.resolve("child.pid");
    Path ready = dir.resolve("ready");
    Path script =
        script(
            "sleep 600 &",
            "echo $! > \"$1.tmp\" && mv \"$1.tmp\" \"$1\"",
            "echo $$ > \"$2.tmp\" && mv \"$2.tmp\" \"$2\"",
            "sleep 600");
    java.util.concurrent.atomic.AtomicBoolean restored =
        new java.util.concurrent.atomic.AtomicBoolean();
    CompletableFuture<LaunchResult> call = new CompletableFuture<>();
    Thread caller =
        new Thread(
            () -> {
              call.complete(
                  launcher.launch(
                      request(script, childPid.toString(), ready.toString())
                          .timeout(Duration.ofMinutes(1))
                          .build()));
              restored.set(Thread.currentThread().isInterrupted());
            });
    caller.start();
    long deadline = System.nanoTime() + SAFETY.toNanos();
    while (!(Files.exists(ready) && Files.exists(childPid)) && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    long leader = readPid(ready);
    long grandchild = readPid(childPid);
    long interruptedAt = System.nanoTime();
    caller.interrupt();

    LaunchResult result = call.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    caller.join(SAFETY.toMillis());

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.CANCELLED);
    assertThat(result.exitCode()).isEmpty();
    assertThat(Duration.ofNanos(System.nanoTime() - interruptedAt)).isLessThan(SAFETY);
    assertThat(gone(leader)).as("leader %s is gone", leader).isTrue();
    assertThat(gone(grandchild)).as("grandchild %s is gone", grandchild).isTrue();
    assertThat(restored.get()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void repeatedRunsLeaveNoTaskBehindAndReuseThePoolThreads(int round) throws IOException {
    for (int i = 0; i < 5; i++) {
      LaunchResult result =
          launcher.launch(request(script("printf \"$1\""), "r" + round + i).build());

      assertThat(result.stdout()).asString(UTF_8).isEqualTo("r" + round + i);
      assertThat(runningTasks()).isZero();
    }
    // Sequential launches of three tasks each: idle threads are reused, not piled up (a test run
    // in parallel elsewhere in this JVM could add a few).
    assertThat(runnerThreads()).hasSizeLessThan(16);
  }

  // ---------------------------------------------------------------- helpers

  private Path script(String... lines) throws IOException {
    return ProcessFixtures.writeScript(dir.resolve("provider.sh"), lines);
  }

  private static LaunchRequestBuilder request(Path script, String... args) {
    List<String> argv = new ArrayList<>();
    argv.add(script.toString());
    argv.addAll(List.of(args));
    return LaunchRequestBuilder.of(argv).environment(ENV).timeout(SAFETY);
  }

  private static long readPid(Path file) throws IOException {
    assertThat(file).as("the script recorded a pid").exists();
    return Long.parseLong(Files.readString(file).trim());
  }

  private static long leaderOf(Path statFile) throws IOException {
    String line = Files.readString(statFile);
    return Long.parseLong(line.substring(0, line.indexOf(' ')));
  }

  /** Polls {@code condition} until true or the safety timeout; never used for synchronisation. */
  private static boolean eventually(BooleanSupplier condition) {
    long start = System.nanoTime();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - start > SAFETY.toNanos()) {
        return false;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    return true;
  }
}
