package io.loopx.runtime.internal.state;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.common.io.MoreFiles;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A child JVM running {@link StateChildMain} on a plain class path (the test JVM itself runs on
 * Surefire's module path), seen line by line.
 *
 * <p>A daemon thread pumps the child's stdout into a queue, so {@link #nextLine()} waits with a
 * safety-net timeout and a child that stops talking fails the test instead of hanging it. Stderr
 * (including any JVM warning) goes to a file in the work directory and is quoted in failures.
 * {@link #kill()} is {@link ProcessHandle#destroyForcibly()} (SIGKILL on Linux) followed by {@code
 * waitFor}; {@link #close()} kills a child that is still alive.
 */
final class ChildJvm implements AutoCloseable {
  /** The safety net for one expected line; never a synchronisation delay. */
  static final Duration LINE_TIMEOUT = Duration.ofSeconds(60);

  private static final List<String> JVM_FLAGS =
      List.of(
          "-Xshare:auto",
          "-XX:TieredStopAtLevel=1",
          "-XX:+UseSerialGC",
          "-Xmx64m",
          "-XX:-UsePerfData",
          // JVM warnings go to stderr, never into the line protocol on stdout.
          "-Xlog:disable",
          "-Xlog:all=warning:stderr");
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static @Nullable Launcher launcher;

  /** How children start: JVM flags (with the class-data archive, if any) and class path. */
  private record Launcher(List<String> flags, String classPath) {}

  private final Process process;
  private final Path stderr;
  private final Writer stdin;
  private final BlockingQueue<Optional<String>> lines = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();
  private boolean ended;

  private ChildJvm(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), UTF_8);
    Thread pump =
        new Thread(
            () -> {
              try (BufferedReader out =
                  new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                  lines.add(Optional.of(line));
                }
              } catch (IOException e) {
                // the pipe broke: same as end of output
              } finally {
                lines.add(Optional.empty());
              }
            },
            "child-stdout-" + process.pid());
    pump.setDaemon(true);
    pump.start();
  }

  /** Starts {@code StateChildMain args...} with stderr captured in {@code workDir}. */
  static ChildJvm start(Path workDir, String... args) {
    Launcher l = launcher();
    return launch(workDir, l.flags(), l.classPath(), args);
  }

  private static ChildJvm launch(
      Path workDir, List<String> flags, String classPath, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(flags);
    command.add("-cp");
    command.add(classPath);
    command.add(StateChildMain.class.getName());
    command.addAll(List.of(args));
    Path stderr = workDir.resolve("child-" + COUNTER.incrementAndGet() + ".stderr");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectError(ProcessBuilder.Redirect.to(stderr.toFile()))
              .start();
      return new ChildJvm(process, stderr);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
  }

  /**
   * Returns the launcher, made once per test JVM. A child spends most of its start loading Jackson
   * and the store, so the first call jars the class directories of the class path and dumps a
   * dynamic class-data-sharing archive from one warm-up child (in {@code target/reliability/cds/});
   * later children map it and start about twice as fast. Without an archive (the dump failed, or
   * {@code -Dloopx.reliability.cds=false}) children run on the plain class path.
   */
  private static synchronized Launcher launcher() {
    Launcher current = launcher;
    if (current == null) {
      List<Path> entries = classPathEntries();
      current = new Launcher(JVM_FLAGS, join(entries));
      if (Boolean.parseBoolean(System.getProperty("loopx.reliability.cds", "true"))) {
        current = withArchive(entries).orElse(current);
      }
      launcher = current;
    }
    return current;
  }

  private static Optional<Launcher> withArchive(List<Path> entries) {
    Path dir = codeSource(ChildJvm.class).getParent().resolve("reliability").resolve("cds");
    try {
      if (Files.exists(dir)) {
        MoreFiles.deleteRecursively(dir);
      }
      Files.createDirectories(dir);
      List<Path> jars = new ArrayList<>();
      for (Path entry : entries) {
        if (Files.isDirectory(entry)) {
          Path jar = dir.resolve(jars.size() + ".jar");
          jarDirectory(entry, jar);
          jars.add(jar);
        } else if (Files.isRegularFile(entry)) {
          jars.add(entry);
        }
      }
      String classPath = join(jars);
      Path archive = dir.resolve("child.jsa");
      List<String> dumpFlags = new ArrayList<>(JVM_FLAGS);
      dumpFlags.add("-XX:ArchiveClassesAtExit=" + archive);
      Path warm = dir.resolve("warm");
      Files.createDirectories(warm);
      try (ChildJvm child =
          launch(
              warm,
              dumpFlags,
              classPath,
              "loop",
              warm.resolve("extensions").resolve("state.json").toString(),
              "warm",
              "3")) {
        child.await("END");
        child.send("EXIT");
        if (child.awaitExit() != 0 || !Files.isRegularFile(archive)) {
          System.out.println("child JVMs run without a class-data archive: " + child.diagnostics());
          return Optional.empty();
        }
      }
      List<String> flags = new ArrayList<>(JVM_FLAGS);
      flags.add("-XX:SharedArchiveFile=" + archive);
      return Optional.of(new Launcher(List.copyOf(flags), classPath));
    } catch (IOException | AssertionError e) {
      System.out.println("child JVMs run without a class-data archive: " + e);
      return Optional.empty();
    }
  }

  private static void jarDirectory(Path directory, Path jar) throws IOException {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(
            new JarEntry(directory.relativize(file).toString().replace(File.separatorChar, '/')));
        Files.copy(file, out);
        out.closeEntry();
      }
    }
  }

  /**
   * The child's class path: the code sources of the test classes and of the store, then {@code
   * java.class.path} and {@code jdk.module.path} (Surefire runs tests on the module path).
   */
  private static List<Path> classPathEntries() {
    Set<Path> entries = new LinkedHashSet<>();
    entries.add(codeSource(StateChildMain.class));
    entries.add(codeSource(FileActivationStore.class));
    for (String property : List.of("java.class.path", "jdk.module.path")) {
      for (String entry : System.getProperty(property, "").split(File.pathSeparator)) {
        if (!entry.isBlank()) {
          entries.add(Path.of(entry).toAbsolutePath().normalize());
        }
      }
    }
    return List.copyOf(entries);
  }

  private static String join(List<Path> entries) {
    return entries.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
  }

  /** Returns the class directory or jar {@code type} was loaded from. */
  static Path codeSource(Class<?> type) {
    try {
      CodeSource source = type.getProtectionDomain().getCodeSource();
      if (source != null && source.getLocation() != null) {
        return Path.of(source.getLocation().toURI()).toAbsolutePath().normalize();
      }
      // Fallback: strip the class's resource path from the URL of its class file.
      String resource = type.getName().replace('.', '/') + ".class";
      URL url = type.getClassLoader().getResource(resource);
      if (url == null || !"file".equals(url.getProtocol())) {
        throw new IllegalStateException("cannot locate the code of " + type);
      }
      Path file = Path.of(url.toURI());
      Path root = file;
      for (int i = 0; i < resource.split("/").length; i++) {
        root = root.getParent();
      }
      return root.toAbsolutePath().normalize();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the code of " + type, e);
    }
  }

  /** Returns the next stdout line, or fails when the child ends or stays silent too long. */
  String nextLine() {
    Optional<String> line = poll();
    if (line.isEmpty()) {
      throw new AssertionError("child ended before the expected line; " + diagnostics());
    }
    return line.get();
  }

  /** Returns the next stdout line, or empty at end of output. */
  Optional<String> poll() {
    if (ended) {
      return Optional.empty();
    }
    try {
      Optional<String> line = lines.poll(LINE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      if (line == null) {
        throw new AssertionError("child silent for " + LINE_TIMEOUT + "; " + diagnostics());
      }
      if (line.isEmpty()) {
        ended = true;
      } else {
        seen.add(line.get());
      }
      return line;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Reads lines until {@code expected}, failing on end of output. */
  void await(String expected) {
    while (!nextLine().equals(expected)) {
      // skip
    }
  }

  /** Returns the remaining stdout lines up to end of output. */
  List<String> drain() {
    List<String> rest = new ArrayList<>();
    for (Optional<String> line = poll(); line.isPresent(); line = poll()) {
      rest.add(line.get());
    }
    return rest;
  }

  /** Returns every stdout line read so far. */
  List<String> seen() {
    return List.copyOf(seen);
  }

  /** Sends one command line to the child's stdin. */
  void send(String command) {
    try {
      stdin.write(command + "\n");
      stdin.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to the child; " + diagnostics(), e);
    }
  }

  /** Sends SIGKILL and waits for the child to be gone. */
  void kill() {
    // Through the ProcessHandle: Process.destroyForcibly() would also close our end of the stdout
    // pipe, losing the lines the child printed just before the kill (the landing of a random kill
    // is read from the last of them).
    process.toHandle().destroyForcibly();
    awaitExit();
  }

  /** Waits (with the safety net) for the child to exit and returns its exit status. */
  int awaitExit() {
    try {
      if (!process.waitFor(LINE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("child did not exit; " + diagnostics());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Returns the pid, the lines seen and the captured stderr, for failure messages. */
  String diagnostics() {
    String err;
    try {
      err = Files.exists(stderr) ? Files.readString(stderr, UTF_8) : "";
    } catch (IOException e) {
      err = "<" + e + ">";
    }
    return "child "
        + process.pid()
        + " stdout so far "
        + (seen.size() > 20 ? seen.subList(seen.size() - 20, seen.size()) : seen)
        + " stderr: "
        + err;
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(LINE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      stdin.close();
    } catch (IOException ignored) {
      // the child is gone
    }
  }
}
