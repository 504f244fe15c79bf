package io.loopx.testkit;

import io.loopx.api.provider.ProviderMain;
import io.loopx.runtime.spi.LaunchOutcome;
import io.loopx.runtime.spi.LaunchRequest;
import io.loopx.runtime.spi.LaunchResult;
import io.loopx.runtime.spi.ProcessLauncher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apiguardian.api.API;

/**
 * A {@link ProcessLauncher} whose processes are {@link ProcessScript}s: no operating-system process
 * is ever started. A launch picks its script by the program, {@code argv[0]} (for a provider, the
 * launcher path LoopX resolved), or, for a {@code java_main} child ({@code [java, -cp, path,
 * className, ...]}), by the class name; a launch that matches no script is {@link
 * LaunchOutcome#NOT_STARTED}, like a missing executable.
 *
 * <p>Like a real launcher it bounds what a script returns: a stream longer than its limit is cut to
 * limit + 1 bytes and the outcome becomes {@code STDOUT_OVER_LIMIT} / {@code STDERR_OVER_LIMIT} (a
 * {@code TIMED_OUT} result stays timed out). Each launch advances the {@linkplain #clock() fake
 * clock} by the result's duration.
 *
 * <p>Every launch is recorded, with its result, in call order: a test can assert that a preview ran
 * no provider code ({@code launchCount() == 0}) or inspect the argv, environment and stdin LoopX
 * built. Scripts can be replaced at any time, also between launches of one test (a doctor that
 * starts failing). Thread-safe; unlike a production launcher it is mutable, by design.
 */
@API(status = API.Status.EXPERIMENTAL, since = "1.0")
public final class ScriptedProcessLauncher implements ProcessLauncher {
  private final FakeClock clock;
  private final Map<String, ProcessScript> programs = new ConcurrentHashMap<>();
  private final Map<String, ProcessScript> javaMains = new ConcurrentHashMap<>();
  private final List<Launch> launches = new CopyOnWriteArrayList<>();

  private ScriptedProcessLauncher(FakeClock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Returns a launcher with no scripts and its own {@link FakeClock#create() fake clock}. */
  public static ScriptedProcessLauncher create() {
    return new ScriptedProcessLauncher(FakeClock.create());
  }

  /** Returns a launcher with no scripts that advances {@code clock}. */
  public static ScriptedProcessLauncher create(FakeClock clock) {
    return new ScriptedProcessLauncher(clock);
  }

  /** Returns the clock that launches advance. */
  public FakeClock clock() {
    return clock;
  }

  /**
   * Scripts the program at {@code launcher} (matched against {@code argv[0]} by its {@code
   * toString()}), replacing an earlier script of it.
   */
  public ScriptedProcessLauncher script(Path launcher, ProcessScript script) {
    return script(launcher.toString(), script);
  }

  /** Scripts the program named exactly {@code program} in {@code argv[0]}. */
  public ScriptedProcessLauncher script(String program, ProcessScript script) {
    programs.put(Objects.requireNonNull(program, "program"), Objects.requireNonNull(script));
    return this;
  }

  /** Scripts the {@code java_main} class {@code className}, whatever {@code java} starts it. */
  public ScriptedProcessLauncher scriptJavaMain(String className, ProcessScript script) {
    javaMains.put(Objects.requireNonNull(className, "className"), Objects.requireNonNull(script));
    return this;
  }

  /** Removes the script of the program at {@code launcher}: its launches are then not started. */
  public ScriptedProcessLauncher unscript(Path launcher) {
    programs.remove(launcher.toString());
    return this;
  }

  @Override
  public LaunchResult launch(LaunchRequest request) {
    Optional<ProcessScript> script = scriptFor(request.argv());
    LaunchResult result =
        script.isPresent()
            ? bounded(request, script.get().run(request))
            : LaunchResult.notStarted(
                "no script for program `" + request.argv().get(0) + "`", Duration.ZERO);
    clock.advance(result.duration());
    launches.add(new Launch(request, result));
    return result;
  }

  private Optional<ProcessScript> scriptFor(List<String> argv) {
    if (argv.size() >= 4 && argv.get(1).equals("-cp")) {
      ProcessScript javaMain = javaMains.get(argv.get(3));
      if (javaMain != null) {
        return Optional.of(javaMain);
      }
    }
    return Optional.ofNullable(programs.get(argv.get(0)));
  }

  /** Applies the request's output caps to a scripted result, as a real launcher would. */
  private static LaunchResult bounded(LaunchRequest request, LaunchResult result) {
    byte[] stdout = result.stdout();
    byte[] stderr = result.stderr();
    boolean stdoutOver = stdout.length > request.stdoutLimit();
    boolean stderrOver = stderr.length > request.stderrLimit();
    if (!stdoutOver && !stderrOver) {
      return result;
    }
    byte[] out = Arrays.copyOf(stdout, Math.min(stdout.length, request.stdoutLimit() + 1));
    byte[] err = Arrays.copyOf(stderr, Math.min(stderr.length, request.stderrLimit() + 1));
    LaunchOutcome outcome;
    if (result.outcome() == LaunchOutcome.TIMED_OUT) {
      outcome = LaunchOutcome.TIMED_OUT;
    } else if (stdoutOver || result.outcome() == LaunchOutcome.STDOUT_OVER_LIMIT) {
      outcome = LaunchOutcome.STDOUT_OVER_LIMIT;
    } else {
      outcome = LaunchOutcome.STDERR_OVER_LIMIT;
    }
    return LaunchResult.stopped(outcome, out, err, result.duration());
  }

  /** Returns every launch so far, oldest first (an immutable copy). */
  public List<Launch> launches() {
    return List.copyOf(launches);
  }

  /** Returns the launches whose program ({@code argv[0]}) was {@code launcher}, oldest first. */
  public List<Launch> launchesOf(Path launcher) {
    String program = launcher.toString();
    return launches.stream().filter(l -> l.program().equals(program)).toList();
  }

  /** Returns the number of launches so far. */
  public int launchCount() {
    return launches.size();
  }

  /** Forgets the recorded launches (scripts stay). */
  public void clearLaunches() {
    launches.clear();
  }

  /**
   * One recorded launch.
   *
   * @param request the request LoopX made
   * @param result what the launcher returned (after applying the caps)
   */
  public record Launch(LaunchRequest request, LaunchResult result) {
    /** Rejects nulls. */
    public Launch {
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(result, "result");
    }

    /** Returns {@code argv[0]}. */
    public String program() {
      return request.argv().get(0);
    }

    /** Returns the whole argv. */
    public List<String> argv() {
      return request.argv();
    }

    /** Returns whether an argument after the program is {@link ProviderMain#DOCTOR_FLAG}. */
    public boolean isDoctorProbe() {
      return request.argv().subList(1, request.argv().size()).contains(ProviderMain.DOCTOR_FLAG);
    }
  }
}
