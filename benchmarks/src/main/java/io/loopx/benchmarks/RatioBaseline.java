package io.loopx.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Compares the ratios of a JMH run with the committed ratios of a quiet run ({@code
 * benchmarks/baseline.tsv}), so that a regression shows up in review
 * (docs/PERFORMANCE.md#regressions).
 *
 * <p>A ratio is flagged when it is more than {@link #TOLERANCE} (25 %) worse than its baseline: a
 * ratio is LoopX's time over a reference measured in the same run, so the machine's own speed
 * cancels out. A comparison missing from either side is listed, not flagged.
 *
 * <p>Usage: {@code RatioBaseline check BASELINE.tsv RESULT.json} (exit 1 when a ratio is flagged)
 * or {@code RatioBaseline write RESULT.json BASELINE.tsv HEADER} (one {@code # } comment line, e.g.
 * the date, machine and commit of the quiet run).
 */
public final class RatioBaseline {
  /** How much worse than its baseline a ratio may be before it is flagged: 25 %. */
  static final double TOLERANCE = 1.25;

  private RatioBaseline() {}

  /** Runs {@code check} or {@code write}; see the class comment. */
  public static void main(String[] args) throws IOException {
    if (args.length == 3 && args[0].equals("check")) {
      Comparison comparison =
          compare(read(Files.readString(Path.of(args[1]))), results(Path.of(args[2])));
      System.out.print(comparison.report());
      System.exit(comparison.flagged() ? 1 : 0);
    } else if (args.length == 4 && args[0].equals("write")) {
      Files.writeString(
          Path.of(args[2]), write(args[3], results(Path.of(args[1]))), StandardCharsets.UTF_8);
    } else {
      System.err.println(
          "usage: RatioBaseline check BASELINE.tsv RESULT.json"
              + " | RatioBaseline write RESULT.json BASELINE.tsv HEADER");
      System.exit(2);
    }
  }

  private static Map<String, Double> results(Path json) throws IOException {
    Map<String, Double> ratios = new LinkedHashMap<>();
    JsonNode results = JsonMapper.builder().build().readTree(json.toFile());
    for (ResultsTable.Ratio ratio : ResultsTable.ratios(results)) {
      ratios.put(ratio.key(), ratio.value());
    }
    return ratios;
  }

  /** The baseline file's text: the header comment, then {@code key<TAB>ratio} per comparison. */
  static String write(String header, Map<String, Double> ratios) {
    StringBuilder out = new StringBuilder("# ").append(header.replace('\n', ' ')).append('\n');
    ratios.forEach((key, ratio) -> out.append(key).append('\t').append(format(ratio)).append('\n'));
    return out.toString();
  }

  /** Parses a baseline file; blank lines and {@code #} comments are skipped. */
  static Map<String, Double> read(String text) {
    Map<String, Double> ratios = new LinkedHashMap<>();
    for (String line : text.split("\n", -1)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] fields = line.split("\t", -1);
      if (fields.length != 2) {
        throw new IllegalArgumentException("not `key<TAB>ratio`: " + line);
      }
      ratios.put(fields[0], Double.parseDouble(fields[1]));
    }
    return ratios;
  }

  /** The outcome of one comparison: a report line per ratio, and whether any was flagged. */
  record Comparison(List<String> lines, boolean flagged) {
    String report() {
      return String.join("\n", lines) + "\n";
    }
  }

  /** Compares measured ratios with their baseline. */
  static Comparison compare(Map<String, Double> baseline, Map<String, Double> measured) {
    List<String> lines = new ArrayList<>();
    lines.add("| comparison | baseline | now | change | |");
    lines.add("|---|---:|---:|---:|---|");
    boolean flagged = false;
    for (Map.Entry<String, Double> entry : measured.entrySet()) {
      Double before = baseline.get(entry.getKey());
      double now = entry.getValue();
      if (before == null) {
        lines.add(row(entry.getKey(), "—", format(now), "—", "no baseline"));
        continue;
      }
      boolean worse = now > before * TOLERANCE;
      flagged |= worse;
      lines.add(
          row(
              entry.getKey(),
              format(before),
              format(now),
              String.format(Locale.ROOT, "%+.0f %%", (now / before - 1) * 100),
              worse ? "**REGRESSION** (> 25 % worse)" : "ok"));
    }
    baseline.keySet().stream()
        .filter(key -> !measured.containsKey(key))
        .forEach(key -> lines.add(row(key, format(baseline.get(key)), "—", "—", "not run")));
    return new Comparison(List.copyOf(lines), flagged);
  }

  private static String row(String key, String before, String now, String change, String verdict) {
    return "| " + key + " | " + before + " | " + now + " | " + change + " | " + verdict + " |";
  }

  private static String format(double ratio) {
    return String.format(Locale.ROOT, ratio < 0.1 ? "%.4f" : "%.3f", ratio);
  }
}
