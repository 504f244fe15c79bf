package io.loopx.store.postgresql;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link HostMain} child JVM seen line by line: a daemon thread pumps its stdout, {@code changed}
 * lines (its change listener) into {@link #changes}, every other line into the replies. Waits have
 * a safety-net timeout only; a child that stops talking fails the test. Stderr goes to a file,
 * quoted in failures. {@link #kill()} is SIGKILL; {@link #close()} kills a child still alive.
 */
final class HostJvm implements AutoCloseable {
  /** The safety net for one expected line; never a synchronisation delay. */
  static final Duration LINE_TIMEOUT = Duration.ofSeconds(90);

  /** A {@code changed} line: the generation and when the listener was called. */
  record Change(long generation, long nanoTime) {}

  final BlockingQueue<Change> changes = new LinkedBlockingQueue<>();
  private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
  private final Process process;
  private final Path stderr;
  private final Writer stdin;

  private HostJvm(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), UTF_8);
    Thread pump =
        new Thread(
            () -> {
              try (BufferedReader out =
                  new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                  if (line.startsWith("changed ")) {
                    String[] w = line.split(" ");
                    changes.add(new Change(Long.parseLong(w[1]), Long.parseLong(w[2])));
                  } else {
                    replies.add(line);
                  }
                }
              } catch (IOException e) {
                // the child died: the next reply times out or reads the end marker
              }
              replies.add("eof");
            },
            "host-jvm-pump");
    pump.setDaemon(true);
    pump.start();
  }

  /**
   * Starts a host on {@code jdbcUrl} whose listener polls every {@code pollMillis} ms while its
   * notification connection is lost, without waiting for it to listen (see {@link #awaitReady}).
   */
  static HostJvm start(Path workDir, String name, String jdbcUrl, long pollMillis) {
    try {
      Files.createDirectories(workDir);
      Path err = workDir.resolve(name + ".err");
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.addAll(
          List.of(
              "-Xshare:auto",
              "-XX:TieredStopAtLevel=1",
              "-XX:+UseSerialGC",
              "-Xmx96m",
              "-XX:-UsePerfData",
              "-Xlog:disable",
              "-Xlog:all=warning:stderr",
              "-cp",
              classPath(),
              HostMain.class.getName(),
              jdbcUrl,
              Long.toString(pollMillis)));
      Process p =
          new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.to(err.toFile())).start();
      return new HostJvm(p, err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits for {@code ready}: the host's listener listens. */
  HostJvm awaitReady() throws InterruptedException {
    String line = reply();
    if (!line.equals("ready")) {
      throw new AssertionError("host did not start: " + line + "; stderr: " + stderr());
    }
    return this;
  }

  /** Sends one command line. */
  void send(String command) {
    try {
      stdin.write(command + "\n");
      stdin.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Returns the next reply line; fails after {@link #LINE_TIMEOUT}. */
  String reply() throws InterruptedException {
    String line = replies.poll(LINE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    if (line == null) {
      throw new AssertionError("no reply within " + LINE_TIMEOUT + "; stderr: " + stderr());
    }
    if (line.startsWith("error ")) {
      throw new AssertionError("host error: " + line + "; stderr: " + stderr());
    }
    return line;
  }

  /** Returns the first change at or after {@code generation}; fails after the safety net. */
  Change awaitChange(long generation) throws InterruptedException {
    long deadline = System.nanoTime() + LINE_TIMEOUT.toNanos();
    while (true) {
      Change c = changes.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (c == null) {
        throw new AssertionError("no change " + generation + " reported; stderr: " + stderr());
      }
      if (c.generation() >= generation) {
        return c;
      }
    }
  }

  /** The host's process id. */
  long pid() {
    return process.pid();
  }

  /** Whether the host's process still runs. */
  boolean alive() {
    return process.isAlive();
  }

  /** SIGKILLs the host and waits for it to end. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      throw new AssertionError("host survived SIGKILL");
    }
  }

  /** Asks the host to quit; kills it if it does not end within the safety net. */
  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      try {
        send("quit");
      } catch (UncheckedIOException e) {
        // already ending
      }
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        kill();
      }
    }
  }

  private String stderr() {
    try {
      return Files.readString(stderr);
    } catch (IOException e) {
      return e.toString();
    }
  }

  /** The test class path: this class's code source, then {@code java.class.path}. */
  private static String classPath() {
    Set<String> entries = new LinkedHashSet<>();
    try {
      entries.add(
          Path.of(HostMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
              .toString());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
      if (!entry.isBlank()) {
        entries.add(Path.of(entry).toAbsolutePath().toString());
      }
    }
    return String.join(File.pathSeparator, entries);
  }
}
