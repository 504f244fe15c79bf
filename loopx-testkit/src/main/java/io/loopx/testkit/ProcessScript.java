package io.loopx.testkit;

import io.loopx.api.provider.ProviderMain;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The scripted behaviour of one fake program: it receives the whole {@link LaunchRequest} (argv,
 * environment, stdin, bounds) and returns the {@link LaunchResult} a real process would have
 * produced. Used by {@link ScriptedProcessLauncher}, which also applies the output caps of the
 * request to whatever a script returns.
 *
 * <p>The factories cover the usual provider behaviours; a lambda covers the rest, for example a
 * script that changes the fake file system while it "runs". A script that throws is a bug in the
 * test: the exception reaches the caller of {@link ScriptedProcessLauncher#launch}.
 *
 * <p>Implemented by tests. Scripts should be stateless or thread-safe.
 */
@FunctionalInterface
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public interface ProcessScript {
  /**
   * Runs the fake process for {@code request}.
   *
   * @param request the request as LoopX built it
   * @return what the process did
   */
  LaunchResult run(LaunchRequest request);

  /** Returns a script that exits with {@code code} and prints nothing. */
  static ProcessScript exits(int code) {
    return request -> LaunchResult.exited(code, new byte[0], new byte[0], Duration.ZERO);
  }

  /** Returns a script that exits with 0 and prints nothing. */
  static ProcessScript succeeds() {
    return exits(0);
  }

  /**
   * Returns a script that prints {@code stdout} and exits with 0 (more than the request's stdout
   * limit becomes {@code STDOUT_OVER_LIMIT}, as for a real process).
   */
  static ProcessScript respondsWith(byte[] stdout) {
    byte[] copy = stdout.clone();
    return request -> LaunchResult.exited(0, copy, new byte[0], Duration.ZERO);
  }

  /** Returns a script that prints {@code stdout} in UTF-8 and exits with 0. */
  static ProcessScript respondsWith(String stdout) {
    return respondsWith(stdout.getBytes(StandardCharsets.UTF_8));
  }

  /** Returns a script that prints {@code json} as compact UTF-8 JSON and exits with 0. */
  static ProcessScript respondsWithJson(JsonNode json) {
    return respondsWith(JsonMapper.builder().build().writeValueAsBytes(json));
  }

  /** Returns a script that prints its stdin back and exits with 0 (like {@code cat}). */
  static ProcessScript echoesStdin() {
    return request -> LaunchResult.exited(0, request.stdin(), new byte[0], Duration.ZERO);
  }

  /**
   * Returns a script that runs past its deadline: {@code TIMED_OUT} after the request's timeout.
   */
  static ProcessScript timesOut() {
    return request ->
        LaunchResult.stopped(LaunchOutcome.TIMED_OUT, new byte[0], new byte[0], request.timeout());
  }

  /** Returns a script that floods stdout: {@code STDOUT_OVER_LIMIT} with limit + 1 bytes. */
  static ProcessScript overflowsStdout() {
    return request -> {
      byte[] flood = new byte[request.stdoutLimit() + 1];
      Arrays.fill(flood, (byte) 'x');
      return LaunchResult.stopped(
          LaunchOutcome.STDOUT_OVER_LIMIT, flood, new byte[0], Duration.ZERO);
    };
  }

  /** Returns a script that floods stderr: {@code STDERR_OVER_LIMIT} with limit + 1 bytes. */
  static ProcessScript overflowsStderr() {
    return request -> {
      byte[] flood = new byte[request.stderrLimit() + 1];
      Arrays.fill(flood, (byte) 'x');
      return LaunchResult.stopped(
          LaunchOutcome.STDERR_OVER_LIMIT, new byte[0], flood, Duration.ZERO);
    };
  }

  /** Returns a script of a program that cannot be started, for {@code reason}. */
  static ProcessScript failsToStart(String reason) {
    Objects.requireNonNull(reason, "reason");
    return request -> LaunchResult.notStarted(reason, Duration.ZERO);
  }

  /**
   * Returns a provider whose doctor probe (argv holding {@link ProviderMain#DOCTOR_FLAG}) exits
   * with {@code code} and whose other runs exit with 0.
   */
  static ProcessScript doctorExits(int code) {
    return succeeds().onDoctor(exits(code));
  }

  /**
   * Returns a script that runs {@code then} when an argument after the program equals {@code
   * argument}, and this script otherwise.
   */
  private ProcessScript whenArgument(String argument, ProcessScript then) {
    Objects.requireNonNull(argument, "argument");
    Objects.requireNonNull(then, "then");
    return request ->
        request.argv().subList(1, request.argv().size()).contains(argument)
            ? then.run(request)
            : run(request);
  }

  /** Returns a script that runs {@code doctor} for a doctor probe and this script otherwise. */
  default ProcessScript onDoctor(ProcessScript doctor) {
    return whenArgument(ProviderMain.DOCTOR_FLAG, doctor);
  }

  /** Returns a script that behaves like this one but reports {@code duration} as its run time. */
  default ProcessScript taking(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    return request -> {
      LaunchResult r = run(request);
      return switch (r.outcome()) {
        case NOT_STARTED -> LaunchResult.notStarted(r.startFailure().orElseThrow(), duration);
        case EXITED ->
            LaunchResult.exited(r.exitCode().orElseThrow(), r.stdout(), r.stderr(), duration);
        default -> LaunchResult.stopped(r.outcome(), r.stdout(), r.stderr(), duration);
      };
    };
  }
}
