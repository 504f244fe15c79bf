package io.loopx.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.runtime.internal.process.LaunchRequestBuilder;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

class ScriptedProcessLauncherTest {
  static final String PROGRAM = "/loopx/packages/demo/bin/provider";

  final ScriptedProcessLauncher launcher = ScriptedProcessLauncher.create();

  static LaunchRequest request(String... argv) {
    return LaunchRequestBuilder.of(List.of(argv))
        .environment(Map.of("PATH", "/loopx/bin"))
        .stdin("{\"q\":1}".getBytes(StandardCharsets.UTF_8))
        .timeout(Duration.ofSeconds(7))
        .stdoutLimit(8)
        .stderrLimit(4)
        .build();
  }

  @Test
  void returnsWhatTheScriptSaysAndRecordsTheLaunch() {
    launcher.script(PROGRAM, ProcessScript.respondsWith("hello"));

    LaunchRequest request = request(PROGRAM, "--serve");
    LaunchResult result = launcher.launch(request);

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.EXITED);
    assertThat(result.exitCode()).hasValue(0);
    assertThat(new String(result.stdout(), StandardCharsets.UTF_8)).isEqualTo("hello");
    assertThat(launcher.launches())
        .singleElement()
        .satisfies(
            l -> {
              assertThat(l.request()).isEqualTo(request);
              assertThat(l.result()).isEqualTo(result);
              assertThat(l.program()).isEqualTo(PROGRAM);
              assertThat(l.isDoctorProbe()).isFalse();
            });
  }

  @Test
  void scriptsSeeArgvEnvironmentAndStdin() {
    launcher.script(
        PROGRAM,
        request ->
            LaunchResult.exited(
                request.argv().size(),
                request.environment().get("PATH").equals("/loopx/bin")
                    ? "ok".getBytes(StandardCharsets.UTF_8)
                    : new byte[0],
                new byte[0],
                Duration.ZERO));
    ProcessScript echo = ProcessScript.echoesStdin();
    launcher.script("/bin/cat", echo);

    LaunchResult result = launcher.launch(request(PROGRAM, "a", "b"));
    assertThat(result.exitCode()).hasValue(3);
    assertThat(result.stdout()).isEqualTo("ok".getBytes(StandardCharsets.UTF_8));
    assertThat(launcher.launch(request("/bin/cat")).stdout())
        .isEqualTo("{\"q\":1}".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void unknownProgramIsNotStartedAndStillRecorded() {
    LaunchResult result = launcher.launch(request("/nowhere/provider"));

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.NOT_STARTED);
    assertThat(result.startFailure()).hasValueSatisfying(r -> assertThat(r).contains("/nowhere"));
    assertThat(launcher.launchCount()).isEqualTo(1);
  }

  @Test
  void doctorExitsOnlyForTheDoctorArgument() {
    launcher.script(PROGRAM, ProcessScript.doctorExits(3));

    assertThat(launcher.launch(request(PROGRAM, "--doctor")).exitCode()).hasValue(3);
    assertThat(launcher.launch(request(PROGRAM)).exitCode()).hasValue(0);
    assertThat(launcher.launches())
        .extracting(ScriptedProcessLauncher.Launch::isDoctorProbe)
        .containsExactly(true, false);
    // the program itself named "--doctor" is not an argument
    launcher.script("--doctor", ProcessScript.doctorExits(5));
    assertThat(launcher.launch(request("--doctor")).exitCode()).hasValue(0);
  }

  @Test
  void timesOutAfterTheRequestTimeoutAndAdvancesTheClock() {
    launcher.script(PROGRAM, ProcessScript.timesOut());
    var before = launcher.clock().instant();

    LaunchResult result = launcher.launch(request(PROGRAM));

    assertThat(result.outcome()).isEqualTo(LaunchOutcome.TIMED_OUT);
    assertThat(result.exitCode()).isEmpty();
    assertThat(result.duration()).isEqualTo(Duration.ofSeconds(7));
    assertThat(launcher.clock().instant()).isEqualTo(before.plusSeconds(7));
  }

  @Test
  void overflowsProduceLimitPlusOneByte() {
    launcher.script(PROGRAM, ProcessScript.overflowsStdout());
    launcher.script("/err", ProcessScript.overflowsStderr());

    LaunchResult out = launcher.launch(request(PROGRAM));
    LaunchResult err = launcher.launch(request("/err"));

    assertThat(out.outcome()).isEqualTo(LaunchOutcome.STDOUT_OVER_LIMIT);
    assertThat(out.stdout()).hasSize(9);
    assertThat(err.outcome()).isEqualTo(LaunchOutcome.STDERR_OVER_LIMIT);
    assertThat(err.stderr()).hasSize(5);
  }

  @Test
  void capsApplyToWhateverAScriptReturns() {
    launcher.script(PROGRAM, ProcessScript.respondsWith("0123456789abcdef"));
    launcher.script(
        "/both", r -> LaunchResult.exited(0, new byte[20], new byte[20], Duration.ZERO));
    launcher.script(
        "/late",
        r -> LaunchResult.stopped(LaunchOutcome.TIMED_OUT, new byte[20], new byte[0], r.timeout()));
    launcher.script("/err", r -> LaunchResult.exited(0, new byte[0], new byte[5], Duration.ZERO));

    LaunchResult big = launcher.launch(request(PROGRAM));
    assertThat(big.outcome()).isEqualTo(LaunchOutcome.STDOUT_OVER_LIMIT);
    assertThat(new String(big.stdout(), StandardCharsets.UTF_8)).isEqualTo("012345678");
    LaunchResult both = launcher.launch(request("/both"));
    assertThat(both.outcome()).isEqualTo(LaunchOutcome.STDOUT_OVER_LIMIT);
    assertThat(both.stderr()).hasSize(5);
    assertThat(launcher.launch(request("/late")).outcome()).isEqualTo(LaunchOutcome.TIMED_OUT);
    assertThat(launcher.launch(request("/err")).outcome())
        .isEqualTo(LaunchOutcome.STDERR_OVER_LIMIT);
  }

  @Test
  void respondsWithCompactJson() {
    ObjectNode json = JsonNodeFactory.instance.objectNode().put("b", 1).put("a", "x");
    launcher.script(PROGRAM, ProcessScript.respondsWithJson(json));

    LaunchResult result = launcher.launch(LaunchRequestBuilder.of(List.of(PROGRAM)).build());

    assertThat(new String(result.stdout(), StandardCharsets.UTF_8))
        .isEqualTo("{\"b\":1,\"a\":\"x\"}");
  }

  @Test
  void javaMainIsMatchedByClassName() {
    launcher.scriptJavaMain("com.example.Main", ProcessScript.exits(4));

    LaunchResult result =
        launcher.launch(
            request("/loopx/jdk/bin/java", "-cp", "/loopx/classes", "com.example.Main"));
    LaunchResult other =
        launcher.launch(
            request("/loopx/jdk/bin/java", "-cp", "/loopx/classes", "com.example.Other"));

    assertThat(result.exitCode()).hasValue(4);
    assertThat(other.outcome()).isEqualTo(LaunchOutcome.NOT_STARTED);
  }

  @Test
  void scriptsCanBeReplacedAndRemoved() {
    java.nio.file.Path program = java.nio.file.Path.of(PROGRAM);
    launcher.script(program, ProcessScript.exits(1));
    assertThat(launcher.launch(request(PROGRAM)).exitCode()).hasValue(1);

    launcher.script(program, ProcessScript.exits(2));
    assertThat(launcher.launch(request(PROGRAM)).exitCode()).hasValue(2);
    assertThat(launcher.launchesOf(program)).hasSize(2);

    launcher.unscript(program);
    assertThat(launcher.launch(request(PROGRAM)).outcome()).isEqualTo(LaunchOutcome.NOT_STARTED);
    launcher.clearLaunches();
    assertThat(launcher.launchCount()).isZero();
  }

  @Test
  void failsToStartAndTakingShapeTheResult() {
    launcher.script(PROGRAM, ProcessScript.failsToStart("exec format error"));
    launcher.script("/slow", ProcessScript.succeeds().taking(Duration.ofMillis(1500)));

    assertThat(launcher.launch(request(PROGRAM)).startFailure()).contains("exec format error");
    assertThat(launcher.launch(request("/slow")).duration()).isEqualTo(Duration.ofMillis(1500));
    assertThatThrownBy(
            () -> ProcessScript.succeeds().taking(Duration.ofSeconds(-1)).run(request("/x")))
        .isInstanceOf(io.loopx.api.LoopxException.class);
  }
}
