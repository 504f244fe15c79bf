package io.loopx.runtime.internal.process;

import io.loopx.runtime.spi.LaunchRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The contained start a one-shot call ({@link OsProcessLauncher#launch}) and a warm worker ({@link
 * LongLivedProcess}) share: the program found on the request's {@code PATH}, started as {@code
 * [prefix] setsid -w -- PROGRAM ARGS} in a cgroup of its own when the {@link Enclosure} gives one
 * (through {@link CallCgroup#start}), else in its own process group; a worker's cgroup gets its
 * {@link Keeper} before the process starts. A step that fails removes what the earlier ones made
 * and says why; {@link Started#executed} is the executed-file check.
 */
final class ContainedStart {
  /** Why nothing starts without {@code setsid}. */
  static final String NO_SETSID =
      "`setsid` (util-linux) was not found; it gives the process its own process group";

  private ContainedStart() {}

  /** How a start ended. */
  sealed interface Result {}

  /**
   * The process runs.
   *
   * @param process the started process ({@code setsid}'s, which execs the program in place)
   * @param cgroup its cgroup, when it has one
   * @param keeper the cgroup's keeper, when one was asked for and there is a cgroup
   * @param command the command line that was started
   */
  record Started(
      Process process,
      Optional<CallCgroup> cgroup,
      Optional<Keeper> keeper,
      List<String> command,
      boolean isolated)
      implements Result {

    /**
     * Checks that the process executes {@code request}'s expected file, by the request's timeout
     * counted from {@code started}; undecided when the request names none. An isolated process is
     * bubblewrap, which stays the parent: the provider is its grandchild (bubblewrap's reaper, pid
     * 1 of the new pid namespace, forks it), found through {@code /proc/PID/task/PID/children}.
     */
    ExecutedFile.Verdict executed(ExecutedFile check, LaunchRequest request, long started) {
      Optional<FileStamp> expected = LaunchRequestRecord.stampOf(request);
      if (expected.isEmpty()) {
        return new ExecutedFile.Verdict.Undecided("no expected file");
      }
      long deadline = started + LaunchSupport.saturatedNanos(request.timeout());
      long pid = process.pid();
      if (isolated) {
        OptionalLong inner = ExecutedFile.grandchild(pid, deadline);
        if (inner.isEmpty()) {
          return new ExecutedFile.Verdict.Undecided("no isolated provider process found");
        }
        pid = inner.getAsLong();
      }
      return check.check(pid, expected.get(), command, deadline);
    }
  }

  /**
   * Nothing runs and nothing is left behind.
   *
   * @param reason why
   */
  record NotStarted(String reason) implements Result {}

  /**
   * Starts {@code request}'s argv in {@code directory} as described above.
   *
   * @param sandbox when present, the isolation argv placed between {@code setsid -w --} and the
   *     program (docs/process.md#isolation)
   * @param whose names the cgroup in failure messages ({@code call's}, {@code worker's})
   * @param keeperPatience when present, a {@link Keeper} is started for the cgroup, and released
   *     with this patience when the process cannot start
   */
  @SuppressWarnings("IllegalCatch")
  static Result start(
      LaunchRequest request,
      Path directory,
      List<String> prefix,
      Path setsid,
      Optional<List<String>> sandbox,
      Enclosure enclosure,
      int pidsLimit,
      String whose,
      Optional<Duration> keeperPatience) {
    String program = request.argv().get(0);
    ProgramLookup.Found found =
        ProgramLookup.resolve(program, request.environment().get("PATH"), directory);
    if (found.program().isEmpty()) {
      return new NotStarted(found.problem());
    }
    List<String> command = new ArrayList<>(prefix);
    command.add(setsid.toString());
    command.add("-w");
    command.add("--");
    sandbox.ifPresent(command::addAll);
    command.add(found.program().get().toString());
    command.addAll(request.argv().subList(1, request.argv().size()));
    Optional<String> unencodable = LaunchSupport.unencodable(command, request.environment());
    if (unencodable.isPresent()) {
      return new NotStarted(unencodable.get());
    }
    Optional<CallCgroup> cgroup;
    try {
      cgroup = enclosure.open(pidsLimit, request.memoryLimit());
    } catch (IOException | RuntimeException e) {
      return new NotStarted(
          "cannot create the " + whose + " cgroup (" + enclosure.kind().wireName() + "): " + e);
    }
    Optional<Keeper> keeper = Optional.empty();
    if (cgroup.isPresent() && keeperPatience.isPresent()) {
      try {
        keeper = Optional.of(Keeper.start(cgroup.get(), setsid));
      } catch (IOException | RuntimeException e) {
        cgroup.get().remove();
        return new NotStarted("cannot start the keeper of the " + whose + " cgroup: " + e);
      }
    }
    ProcessBuilder builder =
        new ProcessBuilder(
            cgroup.isPresent() ? cgroup.get().command(command, request.environment()) : command);
    builder.environment().clear();
    builder
        .environment()
        .putAll(
            cgroup.isPresent()
                ? cgroup.get().processEnvironment(request.environment())
                : request.environment());
    if (request.workingDirectory().isPresent()) {
      builder.directory(directory.toFile());
    }
    Process process;
    try {
      process = cgroup.isPresent() ? cgroup.get().start(builder) : builder.start();
    } catch (IOException | RuntimeException e) {
      cgroup.ifPresent(CallCgroup::remove);
      keeper.ifPresent(k -> k.release(keeperPatience.orElseThrow()));
      return new NotStarted("cannot start `" + program + "`: " + e.getMessage());
    }
    return new Started(process, cgroup, keeper, builder.command(), sandbox.isPresent());
  }
}
