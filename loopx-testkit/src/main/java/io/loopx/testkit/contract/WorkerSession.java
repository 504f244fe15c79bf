package io.loopx.testkit.contract;

import io.loopx.api.provider.ProviderMain;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One provider worker started directly, as a real process (package-private): frames are written to
 * its stdin, its stdout is read line by line on a thread of its own, its stderr is kept (the last
 * 4,096 bytes) for failure messages. Every wait is bounded by the manifest's timeout; {@link
 * #close()} kills the process and its descendants if they are still alive.
 */
final class WorkerSession implements AutoCloseable {
  private static final int STDERR_TAIL = 4_096;

  /** A line of stdout; {@code tooLong} when it passed the frame cap (the reader then stops). */
  record Line(byte[] bytes, boolean tooLong) {
    String text() {
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  private static final Line END = new Line(new byte[0], false);

  private final Process process;
  private final Duration timeout;
  private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
  private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
  private final OutputStream stdin;
  private boolean ended;

  private WorkerSession(Process process, Duration timeout) {
    this.process = process;
    this.timeout = timeout;
    this.stdin = process.getOutputStream();
    daemon("worker-contract-stdout", this::readStdout);
    daemon("worker-contract-stderr", this::readStderr);
  }

  /** Starts {@code command} in {@code workingDirectory}. */
  static WorkerSession start(ProviderHarness.Command command, Path workingDirectory, Duration t) {
    ProcessBuilder builder =
        new ProcessBuilder(command.argv()).directory(workingDirectory.toFile());
    builder.environment().clear();
    builder.environment().putAll(command.environment());
    try {
      return new WorkerSession(builder.start(), t);
    } catch (IOException e) {
      throw new AssertionError("the worker could not be started: " + command.argv(), e);
    }
  }

  long pid() {
    return process.pid();
  }

  /** Writes {@code frame} and a line feed, and flushes. */
  void send(byte[] frame) {
    try {
      stdin.write(frame);
      stdin.write('\n');
      stdin.flush();
    } catch (IOException e) {
      throw new AssertionError(
          "the worker's stdin broke (has it exited?): " + e.getMessage() + describe(), e);
    }
  }

  /** Closes the worker's stdin: end-of-file. */
  void closeStdin() {
    try {
      stdin.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The next line of stdout, or empty at its end.
   *
   * @throws AssertionError when no line and no end comes within the timeout
   */
  Optional<Line> nextLine(String waitingFor) {
    if (ended) {
      return Optional.empty();
    }
    Line line;
    try {
      line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for " + waitingFor, e);
    }
    if (line == null) {
      throw new AssertionError(
          "no line on the worker's stdout within "
              + timeout.toSeconds()
              + " s while waiting for "
              + waitingFor
              + describe());
    }
    if (line == END) {
      ended = true;
      return Optional.empty();
    }
    return Optional.of(line);
  }

  /** The exit code, or empty when the worker did not exit within the timeout. */
  OptionalInt awaitExit() {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
          ? OptionalInt.of(process.exitValue())
          : OptionalInt.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return OptionalInt.empty();
    }
  }

  /** The worker's state and the tail of its stderr, for failure messages. */
  String describe() {
    String state =
        process.isAlive() ? "; the worker is alive" : "; the worker exited " + process.exitValue();
    String tail;
    synchronized (stderr) {
      tail = stderr.toString(StandardCharsets.UTF_8).strip();
    }
    return state + (tail.isEmpty() ? "; stderr empty" : "; stderr: " + tail);
  }

  /** Kills the worker and its descendants if they are alive, and waits for them to end. */
  @Override
  public void close() {
    List<ProcessHandle> tree = process.descendants().toList();
    tree.forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      for (ProcessHandle p : tree) {
        p.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // a descendant that outlives its kill is reported by the host's own checks, not here
    }
  }

  private void readStdout() {
    try (InputStream in = process.getInputStream()) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      byte[] buffer = new byte[8_192];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        for (int i = 0; i < n; i++) {
          byte b = buffer[i];
          if (b == '\n') {
            lines.add(new Line(line.toByteArray(), false));
            line.reset();
          } else if (line.size() >= ProviderMain.MAX_FRAME_BYTES) {
            lines.add(new Line(line.toByteArray(), true));
            return;
          } else {
            line.write(b);
          }
        }
      }
      if (line.size() > 0) {
        lines.add(new Line(line.toByteArray(), false));
      }
    } catch (IOException e) {
      // the stream ends with the process
    } finally {
      lines.add(END);
    }
  }

  private void readStderr() {
    try (InputStream in = process.getErrorStream()) {
      byte[] buffer = new byte[4_096];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        synchronized (stderr) {
          stderr.write(buffer, 0, n);
          if (stderr.size() > 2 * STDERR_TAIL) {
            byte[] all = stderr.toByteArray();
            stderr.reset();
            stderr.write(all, all.length - STDERR_TAIL, STDERR_TAIL);
          }
        }
      }
    } catch (IOException e) {
      // the stream ends with the process
    }
  }

  private static void daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  /** {@code s} cut to 400 characters, for failure messages. */
  static String preview(String s) {
    return s.length() <= 400 ? s : s.substring(0, 400) + "...";
  }
}
