package io.loopx.buildchecks;

import java.lang.module.ModuleDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every qualified export of a library module (an implementation package opened to named LoopX
 * modules) is justified in the "Qualified exports" table of docs/ARCHITECTURE.md: one row per
 * package, naming each target module and a reason.
 */
final class QualifiedExports {
  static final String HEADING = "## Qualified exports";

  private QualifiedExports() {}

  /**
   * Returns a problem for each of {@code exports} (package and its targets) that {@code
   * architecture} (the page's markdown) does not justify, in the order given.
   */
  static List<String> problems(List<ModuleDescriptor.Exports> exports, String architecture) {
    List<String> table = table(architecture);
    List<String> problems = new ArrayList<>();
    for (ModuleDescriptor.Exports e : exports) {
      if (!e.isQualified()) {
        continue;
      }
      Optional<String> row =
          table.stream().filter(l -> l.startsWith("| `" + e.source() + "` |")).findFirst();
      if (row.isEmpty()) {
        problems.add(e.source() + ": no row in the qualified exports of docs/ARCHITECTURE.md");
        continue;
      }
      String[] cells = row.get().split("\\|");
      Set<String> targets = e.targets();
      for (String target : targets.stream().sorted().toList()) {
        if (cells.length < 3 || !cells[2].contains("`" + target + "`")) {
          problems.add(e.source() + ": the row does not name the target " + target);
        }
      }
      if (cells.length < 4 || cells[3].isBlank()) {
        problems.add(e.source() + ": the row gives no reason");
      }
    }
    return problems;
  }

  /** The table rows of the section, or none when the page has no such section. */
  private static List<String> table(String markdown) {
    int start = markdown.indexOf("\n" + HEADING + "\n");
    if (start < 0) {
      return List.of();
    }
    int end = markdown.indexOf("\n## ", start + 1);
    String section = markdown.substring(start, end < 0 ? markdown.length() : end);
    return section.lines().filter(l -> l.startsWith("| `")).toList();
  }
}
