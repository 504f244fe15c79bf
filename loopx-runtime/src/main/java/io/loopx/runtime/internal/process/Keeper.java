package io.loopx.runtime.internal.process;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The keeper of one worker's cgroup: a POSIX shell, started by the host before the worker, that
 * stands outside the worker's cgroup (it is forked from the JVM's own cgroup) and outside the
 * parent-death chain (no {@code --pdeathsig}; {@code setsid} gives it a session of its own, so a
 * signal to the host's process group misses it too). It blocks reading a pipe whose only writer is
 * the host. At end-of-file — the host died (the kernel closes its files, SIGKILL included) or
 * {@link #release released} it — it empties and removes every directory of the cgroup ({@link
 * CallCgroup#directories()}): v2 {@code cgroup.kill}; v1 {@code freezer}: {@code FROZEN}, SIGKILL
 * to every member, {@code THAWED}; other hierarchies: SIGKILL to every member; then {@code rmdir},
 * retried every 20 ms for at most about 5 s. It never signals the host's pid. When the host
 * released it after removing the cgroup itself, it finds nothing and exits at once.
 *
 * <p>It uses only shell built-ins ({@code read}, {@code echo}, {@code kill}, {@code [}) and
 * coreutils {@code rmdir} and {@code sleep}, given by absolute path; its environment is empty.
 */
final class Keeper {
  /** The keeper's program; {@code $1} the host's pid, {@code $2} rmdir, {@code $3} sleep. */
  static final String SCRIPT =
      """
      host=$1 rmdir=$2 sleep=$3; shift 3
      while read -r _; do :; done
      i=0
      while :; do
        left=
        for d in "$@"; do
          [ -d "$d" ] || continue
          if [ -f "$d/cgroup.kill" ]; then
            echo 1 > "$d/cgroup.kill"
          elif [ -f "$d/freezer.state" ]; then
            echo FROZEN > "$d/freezer.state"
            j=0
            while [ $j -lt 50 ] && read -r s < "$d/freezer.state" && [ "$s" != FROZEN ]; do
              "$sleep" 0.002; j=$((j + 1))
            done
            while read -r p; do [ "$p" = "$host" ] || kill -9 "$p"; done < "$d/cgroup.procs"
            echo THAWED > "$d/freezer.state"
          else
            while read -r p; do [ "$p" = "$host" ] || kill -9 "$p"; done < "$d/cgroup.procs"
          fi
          "$rmdir" "$d" || left=1
        done
        [ -z "$left" ] && exit 0
        i=$((i + 1)); [ $i -ge 250 ] && exit 1
        "$sleep" 0.02
      done
      """;

  /** The name the keeper shows as {@code $0} in {@code ps}. */
  static final String NAME = "loopx-keeper";

  private static final Optional<Path> SH = LaunchSupport.findTool("sh");
  private static final Optional<Path> RMDIR = LaunchSupport.findTool("rmdir");
  private static final Optional<Path> SLEEP = LaunchSupport.findTool("sleep");

  private final Process process;

  private Keeper(Process process) {
    this.process = process;
  }

  /**
   * Starts the keeper of {@code cgroup}'s directories, through {@code setsid} (never from inside
   * the cgroup: call this outside {@link CallCgroup#start}).
   *
   * @throws IOException when a tool is missing or the start failed
   */
  static Keeper start(CallCgroup cgroup, Path setsid) throws IOException {
    return start(cgroup, setsid, CgroupSweep.SELF);
  }

  /**
   * As {@link #start(CallCgroup, Path)}, sparing {@code host} instead of this JVM (a test seam).
   */
  static Keeper start(CallCgroup cgroup, Path setsid, long host) throws IOException {
    if (SH.isEmpty() || RMDIR.isEmpty() || SLEEP.isEmpty()) {
      throw new IOException("the keeper needs `sh`, `rmdir` and `sleep`; one was not found");
    }
    List<String> command = new ArrayList<>();
    command.add(setsid.toString());
    command.add("--");
    command.add(SH.get().toString());
    command.add("-c");
    command.add(SCRIPT);
    command.add(NAME);
    command.add(Long.toString(host));
    command.add(RMDIR.get().toString());
    command.add(SLEEP.get().toString());
    for (Path dir : cgroup.directories()) {
      command.add(dir.toString());
    }
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.directory(new File("/"));
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    return new Keeper(builder.start());
  }

  /** Returns the keeper's pid. */
  long pid() {
    return process.pid();
  }

  /**
   * Closes the keeper's pipe (call it once the cgroup is removed, or given up) and waits up to
   * {@code patience} for the keeper to exit; it ends by itself within its own bound otherwise.
   */
  void release(Duration patience) {
    LaunchSupport.closeQuietly(process.getOutputStream());
    boolean interrupted = false;
    long end = System.nanoTime() + patience.toNanos();
    try {
      while (true) {
        try {
          process.waitFor(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
          return;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
