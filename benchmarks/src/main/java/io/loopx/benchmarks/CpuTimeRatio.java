package io.loopx.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * A cross-check of a JMH ratio on a loaded machine (not a replacement for JMH): runs the baseline
 * and the LoopX method of one benchmark class alternately, op by op on the same setup, and times
 * each op by the thread's CPU time, which a descheduled thread does not accrue. Prints the median
 * of each and their ratio; the first half as many rounds again are warm-up.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar io.loopx.benchmarks.CpuTimeRatio
 * assembly|catalog ROUNDS} (docs/PERFORMANCE.md used 600 and 40).
 */
public final class CpuTimeRatio {
  private static volatile Object sink;

  private CpuTimeRatio() {}

  /** Runs the alternation; see the class documentation. */
  public static void main(String[] args) throws Exception {
    String which = args[0];
    int rounds = Integer.parseInt(args[1]);
    Callable<Object> baseline;
    Callable<Object> loopx;
    CatalogCompositionBenchmark catalog = null;
    if (which.equals("assembly")) {
      RegistryAssemblyBenchmark b = new RegistryAssemblyBenchmark();
      b.setUp();
      baseline = b::baselineImmutableMapBuild;
      loopx = b::loopxAssembleAndSeal;
    } else if (which.equals("catalog")) {
      catalog = new CatalogCompositionBenchmark();
      catalog.setUp();
      baseline = catalog::baselineNightConfigParse;
      loopx = catalog::loopxComposeCatalog;
    } else {
      throw new IllegalArgumentException("assembly or catalog, got " + which);
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int warmUp = rounds / 2;
    long[] base = new long[rounds];
    long[] ours = new long[rounds];
    for (int r = 0; r < warmUp + rounds; r++) {
      long t0 = threads.getCurrentThreadCpuTime();
      sink = baseline.call();
      long t1 = threads.getCurrentThreadCpuTime();
      sink = loopx.call();
      long t2 = threads.getCurrentThreadCpuTime();
      if (r >= warmUp) {
        base[r - warmUp] = t1 - t0;
        ours[r - warmUp] = t2 - t1;
      }
    }
    if (catalog != null) {
      catalog.tearDown();
    }
    Arrays.sort(base);
    Arrays.sort(ours);
    double b = base[rounds / 2] / 1e3;
    double l = ours[rounds / 2] / 1e3;
    System.out.printf(
        Locale.ROOT,
        "%s: baseline median %.0f us CPU, LoopX median %.0f us CPU, ratio %.2f (%d rounds)%n",
        which,
        b,
        l,
        l / b,
        rounds);
  }
}
