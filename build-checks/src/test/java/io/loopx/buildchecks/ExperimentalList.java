package io.loopx.buildchecks;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The promise of docs/COMPATIBILITY.md: every type that carries an {@code EXPERIMENTAL} line in a
 * signature file (its declaration or one of its members) is named, in backticks, in a list item of
 * the page's "Experimental in 1.0" section; and those items name nothing that is not experimental.
 */
final class ExperimentalList {
  static final String SECTION = "### Experimental in 1.0";

  private static final Pattern SIGNATURE_LINE = Pattern.compile("^([\\w.$]+): (.*)$");
  private static final Pattern NAMED = Pattern.compile("`([A-Z][\\w.]*)(?:#[\\w]+)?`");

  private ExperimentalList() {}

  /** Returns the simple names (nested ones dotted) of the types with an experimental line. */
  static Set<String> experimentalTypes(List<String> signatureLines) {
    Set<String> types = new LinkedHashSet<>();
    for (String line : signatureLines) {
      Matcher m = SIGNATURE_LINE.matcher(line);
      if (m.matches() && m.group(2).contains("status=EXPERIMENTAL")) {
        types.add(simpleName(m.group(1)));
      }
    }
    return types;
  }

  /** Returns the names the list items of the page's section name in backticks. */
  static Set<String> listed(String page) {
    Set<String> names = new LinkedHashSet<>();
    boolean inSection = false;
    boolean inItem = false;
    for (String line : page.split("\n", -1)) {
      if (line.startsWith("#")) {
        inSection = line.equals(SECTION);
        inItem = false;
        continue;
      }
      inItem = inSection && (line.startsWith("- ") || (inItem && line.startsWith("  ")));
      if (inItem) {
        Matcher m = NAMED.matcher(line);
        while (m.find()) {
          names.add(m.group(1));
        }
      }
    }
    return names;
  }

  /**
   * Returns one problem line per experimental type not listed and per listed type not experimental.
   */
  static List<String> problems(Set<String> experimental, Set<String> listed) {
    List<String> problems = new ArrayList<>();
    for (String type : experimental) {
      if (!listed.contains(type)) {
        problems.add(
            type + ": EXPERIMENTAL in a signature file, not named in docs/COMPATIBILITY.md");
      }
    }
    for (String name : listed) {
      if (!experimental.contains(name)) {
        problems.add(name + ": named in docs/COMPATIBILITY.md, but nothing of it is EXPERIMENTAL");
      }
    }
    return List.copyOf(problems);
  }

  private static String simpleName(String qualified) {
    int i = 0;
    String[] parts = qualified.split("\\.");
    while (i < parts.length && !Character.isUpperCase(parts[i].charAt(0))) {
      i++;
    }
    return String.join(".", List.of(parts).subList(i, parts.length));
  }
}
