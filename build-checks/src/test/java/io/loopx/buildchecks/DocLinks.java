package io.loopx.buildchecks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The link check of the project's documentation (docs/BUILD.md, "Documentation links"): every
 * relative markdown link in a markdown file resolves to an existing file and every {@code #anchor}
 * to a heading (GitHub's anchor rule) or an {@code <a id>} of the target page; every {@code
 * docs/….md} path named in a source, build or markdown file exists, and its anchor too.
 */
final class DocLinks {

  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern DOCS_PATH =
      Pattern.compile("(?<![\\w/.-])(docs/[A-Za-z0-9_./-]+\\.md)(#[A-Za-z0-9_-]+)?");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern HTML_ID = Pattern.compile("<a (?:id|name)=\"([^\"]+)\"");
  private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");

  private DocLinks() {}

  /** Every problem under {@code root}, one line each naming the file, line and link. */
  static List<String> problems(Path root) {
    Set<String> problems = new LinkedHashSet<>();
    Map<Path, Set<String>> anchors = new HashMap<>();
    for (Path file : files(root)) {
      String name = file.getFileName().toString();
      List<String> lines = read(file);
      boolean markdown = name.endsWith(".md");
      boolean fence = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        String where = root.relativize(file) + ":" + (i + 1) + ": ";
        if (markdown && line.strip().startsWith("```")) {
          fence = !fence;
          continue;
        }
        if (markdown && !fence) {
          Matcher link = LINK.matcher(INLINE_CODE.matcher(line).replaceAll(""));
          while (link.find()) {
            String target = link.group(1);
            if (target.matches("^[a-z]+:.*")) {
              continue; // https:, mailto:
            }
            check(file.getParent(), file, target, where, anchors, problems);
          }
        }
        Matcher path = DOCS_PATH.matcher(line);
        while (path.find()) {
          String target = path.group(1) + (path.group(2) == null ? "" : path.group(2));
          check(root, file, target, where, anchors, problems);
        }
      }
    }
    return new ArrayList<>(problems);
  }

  private static void check(
      Path base,
      Path self,
      String target,
      String where,
      Map<Path, Set<String>> anchors,
      Set<String> problems) {
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    Path resolved = path.isEmpty() ? base : base.resolve(path).normalize();
    if (!path.isEmpty() && !Files.exists(resolved)) {
      problems.add(where + target + ": no such file");
      return;
    }
    if (hash < 0) {
      return;
    }
    Path page = path.isEmpty() ? self : resolved;
    if (!page.toString().endsWith(".md")) {
      return;
    }
    String anchor = target.substring(hash + 1);
    if (!anchors.computeIfAbsent(page, DocLinks::anchorsOf).contains(anchor)) {
      problems.add(where + target + ": no heading with that anchor");
    }
  }

  /** The anchors of a markdown page: GitHub's heading anchors (with -1, -2 for repeats) and ids. */
  static Set<String> anchorsOf(Path page) {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fence = false;
    for (String line : read(page)) {
      if (line.strip().startsWith("```")) {
        fence = !fence;
        continue;
      }
      if (fence) {
        continue;
      }
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        String slug = slug(heading.group(1));
        int n = seen.merge(slug, 1, Integer::sum);
        anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
      }
      Matcher id = HTML_ID.matcher(line);
      while (id.find()) {
        anchors.add(id.group(1));
      }
    }
    return anchors;
  }

  /** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
  static String slug(String heading) {
    String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
    StringBuilder slug = new StringBuilder();
    text.codePoints()
        .forEach(
            c -> {
              if (c == ' ') {
                slug.append('-');
              } else if (c == '-' || c == '_' || Character.isLetterOrDigit(c)) {
                slug.appendCodePoint(c);
              }
            });
    return slug.toString();
  }

  private static List<Path> files(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .filter(
              p -> {
                String rel = root.relativize(p).toString().replace('\\', '/');
                String name = p.getFileName().toString();
                return !rel.contains("target/")
                    && !rel.startsWith(".")
                    && !rel.contains("/.")
                    && !name.equals("CHANGELOG.md")
                    && !rel.contains("buildchecks/fixtures/")
                    && !name.equals("DocLinksTest.java")
                    && (name.endsWith(".md") || name.endsWith(".java") || name.equals("pom.xml"));
              })
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> read(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
