package io.loopx.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a JMH JSON result file into the Markdown table of {@code docs/PERFORMANCE.md}: one row per
 * comparison, the LoopX score, the reference score, their ratio and the target.
 *
 * <p>Convention: every benchmark class pairs one {@code loopx...} method with its {@code
 * baseline...} (and {@code peer...}) methods, all in one unit. A row's ratio is LoopX's average
 * time divided by the reference's (lower is better; 1.00 = as fast as the reference). Targets are
 * the first benchmark session's (docs/PERFORMANCE.md#current-figures); a reference without a target
 * is shown for information.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.loopx.benchmarks.ResultsTable RESULT.json [OUT.md]}.
 */
public final class ResultsTable {

  /** The target of one comparison: LoopX / reference must be at most {@code max} (or below). */
  record Target(double max, boolean strict) {
    boolean met(double ratio) {
      return strict ? ratio < max : ratio <= max;
    }

    String text() {
      return (strict ? "< " : "≤ ") + String.format(Locale.ROOT, "%.2f", max);
    }
  }

  /** One measured benchmark method. */
  record Score(String method, double score, double error, String unit) {
    String text() {
      String pattern = pattern(score);
      return String.format(Locale.ROOT, pattern + " ± " + pattern + " %s", score, error, unit);
    }
  }

  private static final Map<String, Target> TARGETS =
      Map.ofEntries(
          Map.entry("RegistryResolveBenchmark.baselineHashMapGet", new Target(2.0, false)),
          Map.entry("RegistryAssemblyBenchmark.baselineImmutableMapBuild", new Target(3.0, false)),
          // revised from 1.5 once night-config reads every manifest (docs/PERFORMANCE.md)
          Map.entry("CatalogCompositionBenchmark.baselineNightConfigParse", new Target(2.0, false)),
          Map.entry("LifecycleWriteBenchmark.baselineAtomicFsyncWrite", new Target(1.5, false)),
          Map.entry("EnvelopeBenchmark.baselineSha256", new Target(10.0, false)), // revised from 3
          Map.entry("ProcessRunnerBenchmark.baselineProcessBuilder", new Target(1.15, false)),
          // issue 36: at most 2x what no governed dispatch can skip; PF4J shown for information
          Map.entry("DispatchBenchmark.baselineGovernanceFloor", new Target(2.0, false)),
          Map.entry("BuiltinLookupBenchmark.peerPf4jLookupAndCall", new Target(1.0, true)),
          Map.entry(
              "WorkerBenchmark.baselineOneShotDispatch",
              new Target(0.01, false)), // warm workers: 100x
          Map.entry("WorkerBenchmark.baselineRawPipeRoundTrip", new Target(1.5, false)), // issue 36
          // issue 35: the price of bubblewrap on a one-shot call and on a warm worker
          Map.entry("IsolationBenchmark.baselinePlainCall", new Target(1.5, false)),
          Map.entry("IsolatedPythonBenchmark.baselinePlainPythonCall", new Target(1.5, false)),
          Map.entry("IsolatedWorkerBenchmark.baselinePlainWarmDispatch", new Target(1.10, false)),
          // the Micrometer observation: at most 10 % on the governed built-in dispatch
          Map.entry(
              "ObservedDispatchBenchmark.baselineUnobservedDispatch", new Target(1.10, false)));

  private ResultsTable() {}

  /**
   * Reads {@code args[0]} (JMH JSON), prints the table and writes it to {@code args[1]} if given.
   */
  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: ResultsTable RESULT.json [OUT.md]");
      System.exit(2);
    }
    String table = render(JsonMapper.builder().build().readTree(Path.of(args[0]).toFile()));
    System.out.print(table);
    if (args.length == 2) {
      Files.writeString(Path.of(args[1]), table);
    }
  }

  /** One comparison: a class's {@code loopx...} method against one of its reference methods. */
  record Ratio(String className, Score loopx, Score reference) {
    /** LoopX's average time divided by the reference's (lower is better). */
    double value() {
      return loopx.score() / reference.score();
    }

    /** {@code Class.referenceMethod}, the key of targets and of the committed baseline. */
    String key() {
      return className + "." + reference.method();
    }
  }

  /** Every comparison in a parsed JMH result array, in the order of the results. */
  static List<Ratio> ratios(JsonNode results) {
    Map<String, List<Score>> byClass = new LinkedHashMap<>();
    for (JsonNode result : results) {
      String benchmark = result.get("benchmark").asString();
      int dot = benchmark.lastIndexOf('.');
      String className = benchmark.substring(benchmark.lastIndexOf('.', dot - 1) + 1, dot);
      JsonNode metric = result.get("primaryMetric");
      byClass
          .computeIfAbsent(className, k -> new ArrayList<>())
          .add(
              new Score(
                  benchmark.substring(dot + 1),
                  metric.get("score").asDouble(),
                  metric.get("scoreError").asDouble(Double.NaN),
                  metric.get("scoreUnit").asString()));
    }
    List<Ratio> ratios = new ArrayList<>();
    byClass.forEach(
        (className, scores) -> {
          Optional<Score> loopx =
              scores.stream().filter(s -> s.method().startsWith("loopx")).findFirst();
          if (loopx.isEmpty()) {
            return;
          }
          for (Score reference : scores) {
            if (!reference.method().startsWith("loopx")) {
              ratios.add(new Ratio(className, loopx.get(), reference));
            }
          }
        });
    return ratios;
  }

  /** Renders the table for a parsed JMH result array. */
  static String render(JsonNode results) {
    StringBuilder out = new StringBuilder();
    out.append("| benchmark | LoopX | reference | reference score | ratio | target | met |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    for (Ratio row : ratios(results)) {
      double ratio = row.value();
      Target target = TARGETS.get(row.key());
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | " + (ratio < 0.1 ? "%.4f" : "%.2f") + " | %s | %s |%n",
              row.className(),
              row.loopx().text(),
              row.reference().method(),
              row.reference().text(),
              ratio,
              target == null ? "—" : target.text(),
              target == null ? "(info)" : target.met(ratio) ? "yes" : "**no**"));
    }
    return out.toString();
  }

  /** Three significant digits for scores from 1 to 999, more below 1. */
  private static String pattern(double value) {
    double magnitude = Math.abs(value);
    return magnitude >= 100 ? "%.0f" : magnitude >= 10 ? "%.1f" : magnitude >= 1 ? "%.2f" : "%.3f";
  }
}
