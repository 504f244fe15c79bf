package io.loopx.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * {@link EnvelopeBenchmark}'s ratio in thread CPU time instead of wall time, for a shared, loaded
 * machine where JMH's wall-clock scores swing by ±50 %: after 20 s of warm-up, each round measures
 * 2,000 bind + verify and 20,000 SHA-256 of the same benchmark state with {@link
 * ThreadMXBean#getCurrentThreadCpuTime()}, and the median ratio of the rounds is printed. Time the
 * thread was not running is not counted; time it shared a core with other work still is.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar io.loopx.benchmarks.EnvelopeCpuRatio 15
 * }</pre>
 */
public final class EnvelopeCpuRatio {
  private static volatile Object sink = new Object();

  private EnvelopeCpuRatio() {}

  /**
   * Runs the measurement.
   *
   * @param args the number of rounds (default 15)
   */
  public static void main(String[] args) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    EnvelopeBenchmark benchmark = new EnvelopeBenchmark();
    benchmark.setUp();
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    long warmEnd = System.nanoTime() + 20_000_000_000L;
    while (System.nanoTime() < warmEnd) {
      for (int i = 0; i < 200; i++) {
        sink = benchmark.loopxBindAndVerify();
        sink = benchmark.baselineSha256();
      }
    }
    double[] ratios = new double[rounds];
    double[] loopx = new double[rounds];
    double[] sha = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long t0 = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < 2_000; i++) {
        sink = benchmark.loopxBindAndVerify();
      }
      long t1 = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < 20_000; i++) {
        sink = benchmark.baselineSha256();
      }
      long t2 = threads.getCurrentThreadCpuTime();
      loopx[r] = (t1 - t0) / 2_000.0 / 1_000.0;
      sha[r] = (t2 - t1) / 20_000.0 / 1_000.0;
      ratios[r] = loopx[r] / sha[r];
    }
    Arrays.sort(ratios);
    Arrays.sort(loopx);
    Arrays.sort(sha);
    System.out.printf(
        "CPU µs/op: bind + verify %.1f, SHA-256 %.2f (medians); ratio median %.2f [quartiles %.2f,"
            + " %.2f]%n",
        loopx[rounds / 2],
        sha[rounds / 2],
        ratios[rounds / 2],
        ratios[rounds / 4],
        ratios[3 * rounds / 4]);
  }
}
