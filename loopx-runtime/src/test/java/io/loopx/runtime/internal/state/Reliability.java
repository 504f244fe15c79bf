package io.loopx.runtime.internal.state;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Settings and reporting of the reliability tests (state, bad input, process containment): counts
 * come from {@code loopx.reliability.*} system properties (the Maven profile {@code reliability}
 * raises them), summaries go to stdout and to {@code target/reliability/}. Public so the tests of
 * the other packages of this module can use it.
 */
public final class Reliability {
  private Reliability() {}

  /** Returns the integer system property {@code loopx.reliability.<name>}, else {@code value}. */
  public static int count(String name, int value) {
    String text = System.getProperty("loopx.reliability." + name, "").trim();
    return text.isEmpty() ? value : Integer.parseInt(text);
  }

  /** Returns {@code loopx.reliability.seed} when set, else a fresh seed (always printed). */
  public static long seed() {
    String text = System.getProperty("loopx.reliability.seed", "").trim();
    return text.isEmpty() ? System.nanoTime() : Long.parseLong(text);
  }

  /** Returns {@code loopx.reliability.seed} when set, else {@code fallback} (a fixed seed). */
  public static long seed(long fallback) {
    String text = System.getProperty("loopx.reliability.seed", "").trim();
    return text.isEmpty() ? fallback : Long.parseLong(text);
  }

  /**
   * Child JVMs (or process trees) run at the same time: {@code loopx.reliability.parallelism},
   * default 2.
   */
  public static int parallelism() {
    return Math.max(
        1, count("parallelism", Math.min(2, Runtime.getRuntime().availableProcessors())));
  }

  /** Runs {@code tasks} on {@link #parallelism()} threads; rethrows the first failure. */
  public static <T> List<T> runAll(List<Callable<T>> tasks) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(parallelism());
    try {
      List<T> results = new ArrayList<>();
      for (Future<T> future : pool.invokeAll(tasks)) {
        try {
          results.add(future.get());
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof Error error) {
            throw error;
          }
          if (cause instanceof RuntimeException runtime) {
            throw runtime;
          }
          throw new AssertionError(cause);
        }
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Prints {@code lines} and writes them to {@code target/reliability/<fileName>}. */
  public static void report(String fileName, List<String> lines) {
    lines.forEach(System.out::println);
    Path target = ChildJvm.codeSource(Reliability.class).getParent();
    Path dir = target.resolve("reliability");
    try {
      Files.createDirectories(dir);
      Files.write(dir.resolve(fileName), lines, UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the reliability report in " + dir, e);
    }
  }
}
